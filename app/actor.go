package app

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"sort"
	"strings"
	"time"
)

// Actor is who is calling: the account, the credential it presented, and the
// interface it came through ("http", "mcp", "cli").
type Actor struct {
	User      User
	Token     *Token
	Interface string
	SessionID string // set when a browser session, not a credential, authenticated the actor
	system    bool
}

// SystemActor acts with the authority of whoever can open the database file:
// the command line's token and backup commands use it.
func SystemActor(iface string) Actor {
	return Actor{Interface: iface, system: true}
}

// IsSystem reports whether the actor is the local operator rather than an account.
func (a Actor) IsSystem() bool { return a.system }

// scopes returns the credential's scopes; an actor without a token narrows nothing.
func (a Actor) scopes() []string {
	if a.Token == nil {
		return []string{ScopeAll}
	}
	return a.Token.Scopes
}

func (a Actor) tokenID() string {
	if a.Token == nil {
		return ""
	}
	return a.Token.ID
}

// lastUsedResolution is how stale last_used_at may get before a request
// refreshes it; a write per request would put every read behind the writer.
const lastUsedResolution = time.Minute

// Authenticate resolves a presented secret to an Actor. Any failure (unknown,
// malformed, expired, revoked, inactive account, inactive responsible person
// anywhere up an agent's chain) answers the same unauthorized error, checked
// on every call against the current state: the store may answer from a
// cache, but only one keyed on a revision that every revocation and
// deactivation moves, so either takes effect on the very next request.
func (s *Service) Authenticate(ctx context.Context, secret, iface string) (Actor, error) {
	denied := Errorf(CodeUnauthorized, "a valid credential is required")
	prefix, ok := secretPrefix(secret)
	if !ok {
		return Actor{}, denied
	}
	sum := sha256.Sum256([]byte(secret))
	c, err := s.store.Credential(ctx, prefix)
	if CodeOf(err) == CodeNotFound {
		return Actor{}, denied
	}
	if err != nil {
		return Actor{}, err
	}
	t := c.Token
	if subtle.ConstantTimeCompare(t.Hash, sum[:]) != 1 || !t.Usable(c.Now) || !c.ChainActive {
		return Actor{}, denied
	}
	a := Actor{User: c.User, Token: &t, Interface: iface}
	// A standby keeps the primary's stamp: its copy takes no writes.
	touch := t.LastUsedAt == nil || c.Now.Sub(*t.LastUsedAt) >= lastUsedResolution
	if touch && !s.standby() {
		err := s.store.Update(ctx, func(tx Tx) error {
			now := tx.Now()
			a.Token.LastUsedAt = &now
			return tx.TouchToken(ctx, a.Token.ID, now)
		})
		if err != nil {
			return Actor{}, err
		}
	}
	return a, nil
}

// secretPrefix extracts the public prefix a secret begins with.
func secretPrefix(secret string) (string, bool) {
	if !strings.HasPrefix(secret, tokenPrefixLead) || len(secret) != secretLength {
		return "", false
	}
	p := secret[:prefixLength]
	if secret[prefixLength] != '_' {
		return "", false
	}
	return p, true
}

// access is what one caller may do, resolved once per transaction: instance
// permissions and, per reachable workspace, the role and the permissions it
// grants, each already narrowed by the credential's scopes and pin.
type access struct {
	actor      Actor
	instance   []string
	workspaces map[string]wsAccess
	order      []string
}

type wsAccess struct {
	Workspace Workspace
	Role      string
	Perms     []string
}

// withAccess makes a transaction body that resolves a's access first, for
// the many methods whose first act is to ask what the caller may do.
func withAccess(ctx context.Context, a Actor, fn func(tx Tx, acc *access) error) func(Tx) error {
	return func(tx Tx) error {
		acc, err := accessOf(ctx, tx, a)
		if err != nil {
			return err
		}
		return fn(tx, acc)
	}
}

// accessOf resolves the caller's access inside tx. Trashed workspaces are
// included (flagged by DeletedAt) so restore can find them; listings skip them.
func accessOf(ctx context.Context, tx Tx, a Actor) (*access, error) {
	acc := &access{actor: a, workspaces: map[string]wsAccess{}}
	if a.system {
		acc.instance = instancePermissions(User{IsSuperuser: true})
		return acc, nil
	}
	acc.instance = narrowTo(instancePermissions(a.User), a.scopes())
	if a.Token != nil && a.Token.WorkspaceID != "" {
		// A pinned credential acts inside its workspace only: nothing
		// instance-wide, whoever holds it.
		acc.instance = []string{}
	}
	ms, err := tx.Memberships(ctx, a.User.ID)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if a.Token != nil && a.Token.WorkspaceID != "" && a.Token.WorkspaceID != m.Workspace.ID {
			continue
		}
		role, ok := RoleByKey(m.Role)
		if !ok {
			continue
		}
		acc.workspaces[m.Workspace.ID] = wsAccess{Workspace: m.Workspace, Role: m.Role, Perms: narrowTo(role.Permissions, a.scopes())}
		acc.order = append(acc.order, m.Workspace.ID)
	}
	return acc, nil
}

func (acc *access) can(perm string) bool { return has(acc.instance, perm) }

// live returns the reachable workspaces that are not in the trash, in joining order.
func (acc *access) live() []wsAccess {
	var out []wsAccess
	for _, id := range acc.order {
		if w := acc.workspaces[id]; w.Workspace.DeletedAt == nil {
			out = append(out, w)
		}
	}
	return out
}

// workspace finds a reachable workspace by id or slug. A workspace the caller
// cannot reach answers not_found, exactly like one that does not exist.
func (acc *access) workspace(idOrSlug string, trashed bool) (wsAccess, error) {
	for _, id := range acc.order {
		w := acc.workspaces[id]
		if w.Workspace.ID == idOrSlug || strings.EqualFold(w.Workspace.Slug, idOrSlug) {
			if (w.Workspace.DeletedAt != nil) != trashed {
				break
			}
			return w, nil
		}
	}
	return wsAccess{}, NotFound("workspace")
}

// pick resolves the workspace a call acts in: the one named, else the only
// one reachable. Several reachable and none named is a validation problem.
func (acc *access) pick(idOrSlug string) (wsAccess, error) {
	if idOrSlug != "" {
		return acc.workspace(idOrSlug, false)
	}
	live := acc.live()
	switch len(live) {
	case 1:
		return live[0], nil
	case 0:
		return wsAccess{}, NotFound("workspace")
	}
	return wsAccess{}, FieldErrorf(CodeWorkspaceRequired, "query.workspace_id",
		"you can reach %d workspaces; name one with workspace_id (an id or a slug)", len(live))
}

func (w wsAccess) can(perm string) bool { return has(w.Perms, perm) }

// require refuses with forbidden when the caller sees the workspace but lacks perm.
func (w wsAccess) require(perm string) error {
	if !w.can(perm) {
		return Errorf(CodeForbidden, "your role in workspace %q does not grant %s", w.Workspace.Slug, perm)
	}
	return nil
}

func (acc *access) require(perm string) error {
	if !acc.can(perm) {
		return Errorf(CodeForbidden, "this needs the %s permission", perm)
	}
	return nil
}

func sortedCopy(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
}
