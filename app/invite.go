package app

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"strconv"
	"strings"
	"time"
)

// Bounds of an invite (docs/api.md, "Invites").
const (
	// InviteDefaultLifetime is how long an invite lasts when its creator
	// names no expiry.
	InviteDefaultLifetime = 7 * 24 * time.Hour
	// InviteMaxLifetime is the longest an invite may last: a link that
	// opens a workspace should not lie about for months.
	InviteMaxLifetime = 30 * 24 * time.Hour
	// InviteMaxUses is the most people one invite may let in.
	InviteMaxUses = 100
	// maxInviteNote bounds the note the join page shows.
	maxInviteNote = 500
)

// The rate limits of invites. Redeeming and checking a username need no
// credential, so they are bounded per client address; making invites is
// bounded per account.
var (
	inviteRedeems = RateLimit{Name: "invite.redeem.addr", Max: 30, Window: 10 * time.Minute,
		What: "invites redeemed from this address"}
	usernameChecks = RateLimit{Name: "invite.username.addr", Max: 300, Window: 10 * time.Minute,
		What: "username checks from this address"}
	inviteCreates = RateLimit{Name: "invite.create.account", Max: 50, Window: time.Hour,
		What: "invites made by this account"}
)

// Invite is a link that lets people without an account join a workspace
// with a role; only the hash of its secret is stored.
type Invite struct {
	ID            string
	Prefix        string
	Hash          []byte
	WorkspaceID   string
	WorkspaceSlug string
	WorkspaceName string
	Role          string
	MaxUses       int
	Uses          int
	Note          string
	ExpiresAt     time.Time
	RevokedAt     *time.Time
	CreatedByID   string
	CreatedBy     string // the creator's username
	CreatedAt     time.Time
	// UsedBy lists who joined by it, first first.
	UsedBy []InviteUse
	// State is what it was when read: usable, expired, revoked or used_up.
	State string
}

// InviteUse is one person who joined by an invite.
type InviteUse struct {
	UserID   string
	Username string
	UsedAt   time.Time
}

// The states of an invite at a moment.
const (
	InviteUsable  = "usable"
	InviteExpired = "expired"
	InviteRevoked = "revoked"
	InviteUsedUp  = "used_up"
	InviteUnknown = "unknown"
)

// stateAt is what the invite is at now: usable, or why not.
func (i Invite) stateAt(now time.Time) string {
	switch {
	case i.RevokedAt != nil:
		return InviteRevoked
	case i.Uses >= i.MaxUses:
		return InviteUsedUp
	case !now.Before(i.ExpiresAt):
		return InviteExpired
	}
	return InviteUsable
}

// why says in words why an invite in state st cannot be used.
func (i Invite) why(st string) string {
	switch st {
	case InviteRevoked:
		return "this invite was revoked; ask whoever sent it for a new one"
	case InviteUsedUp:
		return "this invite has been used as many times as it allows; ask whoever sent it for a new one"
	case InviteExpired:
		return "this invite expired on " + i.ExpiresAt.UTC().Format("2 January 2006 at 15:04 UTC") + "; ask whoever sent it for a new one"
	}
	return "this is not a valid invite; check the link, or ask whoever sent it for a new one"
}

// IssuedInvite is an invite at the one moment its secret exists.
type IssuedInvite struct {
	Invite
	Secret string
}

// InviteCreate is an invite to make (POST /v1/workspaces/{ws}/invites).
type InviteCreate struct {
	Role string
	// MaxUses is how many people may join by it; 0 is one.
	MaxUses int
	// ExpiresIn is how long it lasts ("7d", "12h", "30m"); empty is 7 days.
	ExpiresIn string
	Note      string
}

// InviteInfo is what the join page shows of an invite: its workspace,
// role and note, and whether it can be used, or in words why not.
type InviteInfo struct {
	State         string
	Why           string
	WorkspaceName string
	WorkspaceSlug string
	Role          string
	Note          string
	ExpiresAt     time.Time
	InvitedBy     string
	// Timezone is the workspace's zone, what the join form offers first
	// when the browser does not say its own.
	Timezone string
}

// InviteRedeem is a person joining by an invite (POST /v1/invites/accept).
type InviteRedeem struct {
	Secret   string
	Username string
	Timezone string
}

// Joined is a person who joined by an invite, their role in the
// workspace, and the session they are signed in with.
type Joined struct {
	User      User
	Workspace Workspace
	Role      string
	Session   StartedSession
}

// UsernameCheck answers whether a username can be taken, and if not why.
type UsernameCheck struct {
	Username  string
	Available bool
	Reason    string
}

type inviteTx interface {
	InsertInvite(ctx context.Context, i *Invite) error
	// InviteByPrefix reads an invite by its public prefix, with its workspace.
	InviteByPrefix(ctx context.Context, prefix string) (Invite, error)
	// Invites lists a workspace's invites newest first, each with who used it.
	Invites(ctx context.Context, workspaceID string) ([]Invite, error)
	// RevokeInvite revokes an invite of the workspace, keeping the first
	// revocation time; not_found when it has none of that id.
	RevokeInvite(ctx context.Context, workspaceID, id string, at time.Time) error
	// UseInvite counts one use by userID if the invite has one left, and
	// reports whether it did.
	UseInvite(ctx context.Context, id, userID string, at time.Time) (bool, error)
}

// ParseInviteLifetime reads an invite's lifetime: a whole number of
// minutes, hours or days ("30m", "12h", "7d"), empty for the default.
func ParseInviteLifetime(loc, s string) (time.Duration, error) {
	if s == "" {
		return InviteDefaultLifetime, nil
	}
	bad := Invalidf(loc, "an expiry is a whole number of minutes, hours or days such as 30m, 12h or 7d, at most 30d")
	units := map[byte]time.Duration{'m': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}
	unit, ok := units[s[len(s)-1]]
	n, err := strconv.Atoi(s[:len(s)-1])
	if !ok || err != nil || n < 1 || n > int(InviteMaxLifetime/unit) {
		return 0, bad
	}
	return time.Duration(n) * unit, nil
}

func (s *Service) validateInviteCreate(in *InviteCreate) (time.Duration, error) {
	if in.MaxUses == 0 {
		in.MaxUses = 1
	}
	errs := []error{checkRole("body.role", in.Role), s.checkText("body.note", in.Note, maxInviteNote)}
	if in.MaxUses < 1 || in.MaxUses > InviteMaxUses {
		errs = append(errs, Invalidf("body.max_uses", "an invite lets in 1 to %d people", InviteMaxUses))
	}
	life, err := ParseInviteLifetime("body.expires_in", in.ExpiresIn)
	return life, joinErrors(append(errs, err)...)
}

// inviteManager finds the workspace whose invites the caller manages (the
// one named, else the only one it reaches) and how high a role it may
// hand out there: its owners and admins (who may add members) and the
// instance's administrators.
func inviteManager(ctx context.Context, tx Tx, acc *access, workspace string) (wsAccess, int, error) {
	w, err := acc.pick(workspace)
	if workspace != "" {
		w, err = findWorkspace(ctx, tx, acc, workspace, false)
	}
	if err != nil {
		return wsAccess{}, 0, err
	}
	rank, err := managerRank(acc, w)
	return w, rank, err
}

// CreateInvite makes an invite to a workspace; the answer carries its
// secret, the one time it exists.
func (s *Service) CreateInvite(ctx context.Context, a Actor, workspace string, in InviteCreate) (IssuedInvite, error) {
	life, err := s.validateInviteCreate(&in)
	if err != nil {
		return IssuedInvite{}, err
	}
	var out IssuedInvite
	err = s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, rank, err := inviteManager(ctx, tx, acc, workspace)
		if err != nil {
			return err
		}
		if rankOf(in.Role) > rank {
			return FieldErrorf(CodeForbidden, "body.role", "you cannot invite people with a role above your own")
		}
		if !a.system {
			if err := s.rates.take(inviteCreates, a.User.ID, tx.Now()); err != nil {
				return err
			}
		}
		prefix, secret, hash := newSecret()
		now := tx.Now()
		i := Invite{ID: newID(), Prefix: prefix, Hash: hash, WorkspaceID: w.Workspace.ID, WorkspaceSlug: w.Workspace.Slug,
			WorkspaceName: w.Workspace.Name, Role: in.Role, MaxUses: in.MaxUses, Note: in.Note, ExpiresAt: now.Add(life), CreatedAt: now}
		if !a.system {
			i.CreatedByID, i.CreatedBy = a.User.ID, a.User.Username
		}
		i.State = InviteUsable
		if err := tx.InsertInvite(ctx, &i); err != nil {
			return err
		}
		out = IssuedInvite{Invite: i, Secret: secret}
		return record(ctx, tx, a, Event{WorkspaceID: w.Workspace.ID, EntityType: "workspace", EntityID: w.Workspace.ID,
			Action: "invite.created", SubjectType: "invite", SubjectID: i.ID,
			Changes: map[string]any{"role": i.Role, "max_uses": i.MaxUses, "expires_at": i.ExpiresAt}})
	}))
	return out, err
}

// Invites lists a workspace's invites, pending and past, newest first,
// with who used each.
func (s *Service) Invites(ctx context.Context, a Actor, workspace string) ([]Invite, error) {
	var out []Invite
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, _, err := inviteManager(ctx, tx, acc, workspace)
		if err != nil {
			return err
		}
		out, err = tx.Invites(ctx, w.Workspace.ID)
		for n := range out {
			out[n].State = out[n].stateAt(tx.Now())
		}
		return err
	}))
	return out, err
}

// RevokeInvite stops an invite from letting anybody else in; those who
// joined by it stay.
func (s *Service) RevokeInvite(ctx context.Context, a Actor, workspace, id string) error {
	return s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, _, err := inviteManager(ctx, tx, acc, workspace)
		if err != nil {
			return err
		}
		if err := tx.RevokeInvite(ctx, w.Workspace.ID, id, tx.Now()); err != nil {
			return notFoundAs(err, "invite")
		}
		return record(ctx, tx, a, Event{WorkspaceID: w.Workspace.ID, EntityType: "workspace", EntityID: w.Workspace.ID,
			Action: "invite.revoked", SubjectType: "invite", SubjectID: id})
	}))
}

// inviteBySecret finds the invite a secret names and its state at the
// transaction's time; an unknown secret is an Invite in state unknown.
func inviteBySecret(ctx context.Context, tx Tx, secret string) (Invite, string, error) {
	prefix, ok := secretPrefix(strings.TrimSpace(secret))
	if !ok {
		return Invite{}, InviteUnknown, nil
	}
	i, err := tx.InviteByPrefix(ctx, prefix)
	if CodeOf(err) == CodeNotFound {
		return Invite{}, InviteUnknown, nil
	}
	if err != nil {
		return Invite{}, "", err
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(secret)))
	if subtle.ConstantTimeCompare(i.Hash, sum[:]) != 1 {
		return Invite{}, InviteUnknown, nil
	}
	return i, i.stateAt(tx.Now()), nil
}

// InviteInfo is what the join page shows of the invite a secret names,
// usable or not; it changes nothing.
func (s *Service) InviteInfo(ctx context.Context, secret string) (InviteInfo, error) {
	var out InviteInfo
	err := s.store.View(ctx, func(tx Tx) error {
		i, st, err := inviteBySecret(ctx, tx, secret)
		if err != nil {
			return err
		}
		out = InviteInfo{State: st, WorkspaceName: i.WorkspaceName, WorkspaceSlug: i.WorkspaceSlug, Role: i.Role, Note: i.Note,
			ExpiresAt: i.ExpiresAt, InvitedBy: i.CreatedBy}
		if st != InviteUsable {
			out = InviteInfo{State: st, Why: i.why(st)}
			return nil
		}
		w, err := tx.WorkspaceByID(ctx, i.WorkspaceID)
		out.Timezone = w.Timezone
		return err
	})
	return out, err
}

// UsernameAvailable answers whether a person may take name, by the rules
// an account is created by, for the join form's live check. It tells
// whether an account exists, which nobody without an account may learn:
// only the holder of a usable invite (secret), about to become one, is
// answered, and as often as usernameChecks allows per client address
// addr. Any other secret is refused as redeeming it would be.
func (s *Service) UsernameAvailable(ctx context.Context, secret, name, addr string) (UsernameCheck, error) {
	out := UsernameCheck{Username: name}
	err := s.store.View(ctx, func(tx Tx) error {
		if err := s.rates.take(usernameChecks, addr, tx.Now()); err != nil {
			return err
		}
		i, st, err := inviteBySecret(ctx, tx, secret)
		if err != nil {
			return err
		}
		if st != InviteUsable {
			return Errorf(CodeInviteUnusable, "%s", i.why(st))
		}
		if err := checkUsername("body.username", name); err != nil {
			out.Reason = AsError(err).Detail
			return nil
		}
		_, err = tx.UserByName(ctx, name)
		switch CodeOf(err) {
		case CodeNotFound:
			out.Available = true
			return nil
		case "":
			out.Reason = name + " is taken"
		}
		return err
	})
	return out, err
}

// RedeemInvite lets a person join by an invite: it creates their account
// (a person, never an agent), makes them a member with the invite's role,
// counts the use and signs them in, all in one transaction. An invite that
// is unknown, expired, revoked or used up changes nothing. Attempts are
// bounded per client address.
func (s *Service) RedeemInvite(ctx context.Context, in InviteRedeem, c SessionClient) (Joined, error) {
	if err := s.validateUserCreate(UserCreate{Username: in.Username, Timezone: in.Timezone}); err != nil {
		return Joined{}, err
	}
	if in.Timezone == "" {
		return Joined{}, Invalidf("body.timezone", "pick your timezone: an IANA name such as Europe/Berlin or UTC")
	}
	var out Joined
	err := s.store.Update(ctx, func(tx Tx) error {
		if err := s.rates.take(inviteRedeems, c.Address, tx.Now()); err != nil {
			return err
		}
		i, st, err := inviteBySecret(ctx, tx, in.Secret)
		if err != nil {
			return err
		}
		if st != InviteUsable {
			return Errorf(CodeInviteUnusable, "%s", i.why(st))
		}
		u, err := insertUser(ctx, tx, SystemActor("web"), UserCreate{Username: in.Username, Timezone: in.Timezone})
		if CodeOf(err) == CodeConflict {
			return FieldErrorf(CodeUsernameTaken, "body.username", "the username %q is taken; pick another", in.Username)
		}
		if err != nil {
			return err
		}
		if ok, err := tx.UseInvite(ctx, i.ID, u.ID, tx.Now()); err != nil || !ok {
			return joinErrors(err, Errorf(CodeInviteUnusable, "%s", i.why(InviteUsedUp)))
		}
		m := Member{WorkspaceID: i.WorkspaceID, UserID: u.ID, Role: i.Role, CreatedAt: tx.Now()}
		if err := tx.InsertMember(ctx, &m); err != nil {
			return err
		}
		me := Actor{User: u, Interface: "web"}
		if err := record(ctx, tx, me, Event{WorkspaceID: i.WorkspaceID, EntityType: "workspace", EntityID: i.WorkspaceID,
			Action: "member.added", SubjectType: "user", SubjectID: u.ID, Changes: map[string]any{"username": u.Username, "role": i.Role}}); err != nil {
			return err
		}
		if err := record(ctx, tx, me, Event{WorkspaceID: i.WorkspaceID, EntityType: "workspace", EntityID: i.WorkspaceID,
			Action: "invite.used", SubjectType: "invite", SubjectID: i.ID, Changes: map[string]any{"username": u.Username}}); err != nil {
			return err
		}
		w, err := tx.WorkspaceByID(ctx, i.WorkspaceID)
		if err != nil {
			return err
		}
		out = Joined{User: u, Workspace: w, Role: i.Role}
		out.Session, err = openSession(ctx, tx, u.ID, SessionStart{Via: "invite", SessionClient: c})
		return err
	})
	return out, err
}
