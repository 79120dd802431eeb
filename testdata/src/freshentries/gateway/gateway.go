// Package gateway decodes each request's schema with a parser of its own.
package gateway

import "freshentries/schemas"

func Fields(desc string) ([]string, error) {
	p := schemas.NewParser()
	s, err := p.Parse(desc) // want `\(\*freshentries/schemas.Parser\).Parse fresh`
	if err != nil {
		return nil, err
	}
	return s.Fields, nil
}

func Name(desc string) (string, error) { return schemas.Decode(desc) }
