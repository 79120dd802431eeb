package lockflow

import "sort"

// bitset is a set of small non-negative integers (read-site labels), kept
// as a sorted slice: most values carry one or two labels, so a sparse
// representation makes unions cost what the sets hold, not the highest
// label of the function.
type bitset []int32

func (s bitset) has(i int) bool {
	j := sort.Search(len(s), func(k int) bool { return s[k] >= int32(i) })
	return j < len(s) && s[j] == int32(i)
}

func (s *bitset) add(i int) {
	v := int32(i)
	j := sort.Search(len(*s), func(k int) bool { return (*s)[k] >= v })
	if j < len(*s) && (*s)[j] == v {
		return
	}
	*s = append(*s, 0)
	copy((*s)[j+1:], (*s)[j:])
	(*s)[j] = v
}

// unionWith adds t to s and reports whether s grew.
func (s *bitset) unionWith(t bitset) bool {
	if len(t) == 0 {
		return false
	}
	a := *s
	// Fast path: t adds nothing.
	i, j, missing := 0, 0, 0
	for j < len(t) {
		switch {
		case i < len(a) && a[i] < t[j]:
			i++
		case i < len(a) && a[i] == t[j]:
			i++
			j++
		default:
			missing++
			j++
		}
	}
	if missing == 0 {
		return false
	}
	out := make(bitset, 0, len(a)+missing)
	i, j = 0, 0
	for i < len(a) || j < len(t) {
		switch {
		case j == len(t) || (i < len(a) && a[i] < t[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || t[j] < a[i]:
			out = append(out, t[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	*s = out
	return true
}

func (s bitset) empty() bool { return len(s) == 0 }

// each calls f for each element in increasing order.
func (s bitset) each(f func(int)) {
	for _, v := range s {
		f(int(v))
	}
}

// without returns a copy of s without i.
func (s bitset) without(i int) bitset {
	if !s.has(i) {
		return s
	}
	out := make(bitset, 0, len(s)-1)
	for _, x := range s {
		if int(x) != i {
			out = append(out, x)
		}
	}
	return out
}
