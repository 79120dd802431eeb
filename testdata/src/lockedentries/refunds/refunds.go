// Package refunds re-charges a failed refund straight away, without the
// biller's stripe: two of them for one account can both pass Reserve's
// balance check.
package refunds

import "lockedentries/quota"

func Retry(l *quota.Ledger, account string, n int) bool {
	return l.Reserve(account, n) // want `\(\*lockedentries/quota.Ledger\).Reserve other`
}
