// Package signup adds passwords through package profile's methods.
package signup

import "crosspkg/profile"

func AddPassword(p *profile.Profile, hash string) {
	c, _ := p.Credential("password")
	c.Secrets = append(c.Secrets, hash)
	p.SetCredential("password", c)
}

func AddAccountPassword(a *profile.Account, hash string) {
	c, _ := a.Credential("password")
	c.Secrets = append(c.Secrets, hash)
	a.SetCredential("password", c) // want `a.l is locked again for writing by a.SetCredential after RUnlock`
}
