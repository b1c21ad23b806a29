package wire

import (
	"tend/app"
)

// Invite is an invite as the API answers it: never its secret, which only
// IssuedInvite carries, once.
type Invite struct {
	ID        string      `json:"id"`
	Workspace string      `json:"workspace"`
	Role      string      `json:"role"`
	MaxUses   int         `json:"max_uses"`
	Uses      int         `json:"uses"`
	Note      string      `json:"note"`
	State     string      `json:"state"`
	ExpiresAt string      `json:"expires_at"`
	RevokedAt *string     `json:"revoked_at"`
	CreatedBy *string     `json:"created_by"`
	CreatedAt string      `json:"created_at"`
	UsedBy    []InviteUse `json:"used_by"`
}

// InviteUse is one person who joined by an invite.
type InviteUse struct {
	Username string `json:"username"`
	UsedAt   string `json:"used_at"`
}

// NewInvite is the wire record of i.
func NewInvite(i app.Invite) Invite {
	return Invite{ID: i.ID, Workspace: i.WorkspaceSlug, Role: i.Role, MaxUses: i.MaxUses, Uses: i.Uses, Note: i.Note, State: i.State,
		ExpiresAt: Stamp(i.ExpiresAt), RevokedAt: StampPtr(i.RevokedAt), CreatedBy: OrNull(i.CreatedBy), CreatedAt: Stamp(i.CreatedAt),
		UsedBy: Map(i.UsedBy, func(u app.InviteUse) InviteUse { return InviteUse{Username: u.Username, UsedAt: Stamp(u.UsedAt)} })}
}

// IssuedInvite is a new invite with the link that redeems it: the one
// answer that carries its secret.
type IssuedInvite struct {
	Invite
	URL string `json:"url"`
}

// InviteCreate is the body of POST /v1/workspaces/{ws}/invites.
type InviteCreate struct {
	Role      string `json:"role"`
	MaxUses   int    `json:"max_uses,omitempty"`
	ExpiresIn string `json:"expires_in,omitempty"`
	Note      string `json:"note,omitempty"`
}

// App is the Service's input.
func (in InviteCreate) App() app.InviteCreate {
	return app.InviteCreate{Role: in.Role, MaxUses: in.MaxUses, ExpiresIn: in.ExpiresIn, Note: in.Note}
}

// InviteAccept is the body of POST /v1/invites/accept.
type InviteAccept struct {
	Invite   string `json:"invite"`
	Username string `json:"username"`
	Timezone string `json:"timezone"`
}

// App is the Service's input.
func (in InviteAccept) App() app.InviteRedeem {
	return app.InviteRedeem{Secret: in.Invite, Username: in.Username, Timezone: in.Timezone}
}

// UsernameAsk is the body of POST /v1/invites/check: the invite being
// redeemed and the username to try.
type UsernameAsk struct {
	Invite   string `json:"invite"`
	Username string `json:"username"`
}

// UsernameCheck is the answer of POST /v1/invites/check.
type UsernameCheck struct {
	Username  string `json:"username"`
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
}

// JoinURL is the link a person opens to join by an invite.
func JoinURL(base, secret string) string {
	return base + "/join/" + secret
}
