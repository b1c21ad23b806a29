package store

import (
	"context"

	"tend/app"
)

// Administrators lists the usernames of the instance's active
// administrators, oldest first.
func (t *Tx) Administrators(ctx context.Context) ([]string, error) {
	var out []string
	err := t.tx.SelectContext(ctx, &out, `SELECT username FROM users WHERE is_superuser = 1 AND active = 1 AND is_service_account = 0
		ORDER BY seq`)
	return out, mapErr(err)
}

// UserByTailscaleLogin reads the account a Tailscale login is linked to;
// login is case-folded as it is stored.
func (t *Tx) UserByTailscaleLogin(ctx context.Context, login string) (app.User, error) {
	return t.getUser(ctx, "u.tailscale_login = ?", login)
}
