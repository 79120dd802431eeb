// Package gateway decodes each request's schema with a parser of its own.
package gateway

import "freshentries/schemas"

func Fields(desc string) ([]string, error) {
	p := schemas.NewParser()
	s, err := p.Parse(desc) // want `\(\*freshentries/schemas.Parser\).Parse fresh` `\(\*freshentries/schemas.Parser\).Parse locked`
	if err != nil {
		return nil, err
	}
	return s.Fields, nil
}

func Name(desc string) (string, error) { return schemas.Decode(desc) } // want `freshentries/schemas.Decode other locked`

// FieldCount decodes a batch with one parser. The parser is reused across
// the loop, but nothing in the loop shows it to anyone else.
func FieldCount(descs []string) (int, error) {
	p := schemas.NewParser()
	n := 0
	for _, desc := range descs {
		s, err := p.Parse(desc)
		if err != nil {
			return n, err
		}
		n += len(s.Fields)
	}
	return n, nil
}
