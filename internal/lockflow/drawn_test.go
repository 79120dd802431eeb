package lockflow

import "testing"

// TestFreshID checks which id generators' functions count as draws, by
// the names SSA prints for them.
func TestFreshID(t *testing.T) {
	for fn, want := range map[string]bool{
		"github.com/google/uuid.New":                         true,
		"github.com/google/uuid.NewString":                   true,
		"github.com/google/uuid.NewSHA1":                     false, // name-based: a function of its input
		"github.com/google/uuid.Parse":                       false,
		"github.com/gofrs/uuid/v5.NewV4":                     true,
		"github.com/gofrs/uuid/v5.NewV5":                     false,
		"github.com/gofrs/uuid/v5.Gen).NewV7":                true, // (*uuid.Gen).NewV7 without "(*"
		"github.com/rs/xid.New":                              true,
		"github.com/rs/xid.FromString":                       false,
		"github.com/oklog/ulid/v2.Make":                      true,
		"example.com/uuid.New":                               false,
		"github.com/google/uuid/internal/fake.New":           false,
		"github.com/lithammer/shortuuid/v4.NewWithNamespace": false,
	} {
		if got := freshID(fn); got != want {
			t.Errorf("freshID(%q) = %v, want %v", fn, got, want)
		}
	}
}
