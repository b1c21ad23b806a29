package app

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"strings"
	"time"
)

// Lifetimes of browser sign-in (docs/api.md, "Signing in from a browser").
const (
	// LoginLinkLifetime is how long a sign-in link can be spent.
	LoginLinkLifetime = 15 * time.Minute
	// DeviceLinkLifetime is how long a device link can be spent: it is
	// shown on a screen, where someone nearby may see it, and the person
	// spends it on the device in their other hand.
	DeviceLinkLifetime = 10 * time.Minute
	// SessionIdleLifetime is how long a session lasts unused when the
	// instance sets nothing else (session_idle_days); each use slides it.
	SessionIdleLifetime = 30 * 24 * time.Hour
	// SessionMaxLifetime caps a session however often it is used. A year,
	// not a month: sessions now slide and are listed and revocable as
	// devices, so a phone used every week need not be signed in again
	// every month, while a stolen cookie still dies within the idle
	// lifetime of its last use and a session never outlives a year.
	SessionMaxLifetime = 365 * 24 * time.Hour
	// sessionTouchResolution keeps a busy session from writing on every request.
	sessionTouchResolution = time.Minute
)

// LoginLink is a single-use sign-in link; only the hash of its secret is stored.
type LoginLink struct {
	ID         string
	Prefix     string
	Hash       []byte
	UserID     string
	Username   string
	IssuedByID string
	ExpiresAt  time.Time
	SpentAt    *time.Time
	RevokedAt  *time.Time
	CreatedAt  time.Time
	// Via is how the session it opens began: "link", or "device_link" for
	// one a person minted for another device of their own.
	Via string
}

// IssuedLoginLink is a sign-in link at the one moment its secret exists.
type IssuedLoginLink struct {
	LoginLink
	Secret string
}

// Session is a signed-in browser; the tend_session cookie carries its secret.
type Session struct {
	ID         string
	Prefix     string
	Hash       []byte
	UserID     string
	LinkID     string
	LastSeenAt time.Time
	IdleUntil  time.Time
	ExpiresAt  time.Time
	RevokedAt  *time.Time
	CreatedAt  time.Time
	Via        string // how it began (SessionStart.Via)
	UserAgent  string // the browser's User-Agent header as it signed in
}

// Usable reports whether the session still authenticates at now.
func (s Session) Usable(now time.Time) bool {
	return s.RevokedAt == nil && now.Before(s.IdleUntil) && now.Before(s.ExpiresAt)
}

// StartedSession is a session at the one moment its secret exists.
type StartedSession struct {
	Session
	Secret string
}

// SessionCheck is a session, its account, whether the account's chain of
// responsibility is active, and the store's clock.
type SessionCheck struct {
	Session     Session
	User        User
	ChainActive bool
	// IdleLifetime is how long the instance lets a session go unused.
	IdleLifetime time.Duration
	Now          time.Time
}

// SessionIdleFor is the idle lifetime of days, the instance's
// session_idle_days; outside 1 to 365 (no instance yet), the default.
func SessionIdleFor(days int) time.Duration {
	if days < 1 || days > 365 {
		return SessionIdleLifetime
	}
	return time.Duration(days) * 24 * time.Hour
}

type sessionTx interface {
	InsertLoginLink(ctx context.Context, l *LoginLink) error
	LoginLinkByPrefix(ctx context.Context, prefix string) (LoginLink, error)
	SpendLoginLink(ctx context.Context, id string, at time.Time) (bool, error)
	InsertSession(ctx context.Context, s *Session) error
	SessionByPrefix(ctx context.Context, prefix string) (SessionCheck, error)
	TouchSession(ctx context.Context, id string, seen, idleUntil time.Time) error
	RevokeSession(ctx context.Context, id string, at time.Time) error
	// RevokeSignIns revokes every live session but keep (none when empty)
	// and every unspent link of the account.
	RevokeSignIns(ctx context.Context, userID, keep string, at time.Time) (SignedOut, error)
	// LiveSessions lists an account's sessions usable at now, most recently used first.
	LiveSessions(ctx context.Context, userID string, now time.Time) ([]Session, error)
	// RevokeUserSession ends one live session of an account and reports whether there was one.
	RevokeUserSession(ctx context.Context, userID, id string, at time.Time) (bool, error)
	// UserByTailscaleLogin reads the account a (case-folded) Tailscale login is linked to.
	UserByTailscaleLogin(ctx context.Context, login string) (User, error)
}

// SignedOut counts what POST /v1/users/{username}/signout revoked.
type SignedOut struct {
	Sessions int
	Links    int
}

// LoginLinkCreate is a sign-in link to mint (POST /v1/login-links).
type LoginLinkCreate struct {
	Username string
}

// CreateLoginLink mints a single-use sign-in link for the caller or, with
// instance:user_create, for another account. A session carries its
// account's whole authority, so a narrowed credential may not mint one: it
// would open a browser wider than itself.
func (s *Service) CreateLoginLink(ctx context.Context, a Actor, in LoginLinkCreate) (IssuedLoginLink, error) {
	if in.Username != "" {
		if err := checkUsername("body.username", in.Username); err != nil {
			return IssuedLoginLink{}, err
		}
	}
	var out IssuedLoginLink
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		if a.Token != nil && a.Token.Narrows() {
			return Errorf(CodeLoginLinkNarrowed, "a narrowed credential cannot open a browser session; use one that is not narrowed")
		}
		target := a.User
		if a.system || (in.Username != "" && !strings.EqualFold(in.Username, a.User.Username)) {
			if !acc.can(PermUserCreate) {
				return Errorf(CodeTokenForOther, "a sign-in link for another account needs %s", PermUserCreate)
			}
			if in.Username == "" {
				return Invalidf("body.username", "name the account the link is for")
			}
			if target, err = tx.UserByName(ctx, in.Username); err != nil {
				return bodyRef(err, "body.username", "no such account")
			}
		}
		if err := s.rates.take(LoginLinkUserLimit, target.ID, tx.Now()); err != nil {
			return err
		}
		out, err = mintLoginLink(ctx, tx, a, target, "link")
		return err
	}))
	return out, err
}

// mintLoginLink mints a sign-in link for u: a "link" lives
// LoginLinkLifetime, a "device_link" DeviceLinkLifetime.
func mintLoginLink(ctx context.Context, tx Tx, a Actor, u User, via string) (IssuedLoginLink, error) {
	if !u.Active {
		return IssuedLoginLink{}, FieldErrorf(CodeAccountInactive, "body.username", "%s is deactivated", u.Username)
	}
	if u.IsServiceAccount {
		return IssuedLoginLink{}, Invalidf("body.username", "%s is a service account; service accounts use API tokens, not browser sessions", u.Username)
	}
	lasts := LoginLinkLifetime
	if via == "device_link" {
		lasts = DeviceLinkLifetime
	}
	prefix, secret, hash := newSecret()
	l := LoginLink{ID: newID(), Prefix: prefix, Hash: hash, UserID: u.ID, Username: u.Username,
		ExpiresAt: tx.Now().Add(lasts), CreatedAt: tx.Now(), Via: via}
	if !a.system {
		l.IssuedByID = a.User.ID
	}
	if err := tx.InsertLoginLink(ctx, &l); err != nil {
		return IssuedLoginLink{}, err
	}
	return IssuedLoginLink{LoginLink: l, Secret: secret}, nil
}

// CheckLoginLink reports whose link secret is, without spending it: the
// confirmation page shows it, so a link preview cannot burn the link. It
// counts against the client address addr's sign-ins (SignInLinkAddrLimit).
func (s *Service) CheckLoginLink(ctx context.Context, secret, addr string) (LoginLink, error) {
	var out LoginLink
	err := s.store.View(ctx, func(tx Tx) error {
		if err := s.rates.take(SignInLinkAddrLimit, addr, tx.Now()); err != nil {
			return err
		}
		var err error
		out, err = usableLink(ctx, tx, secret)
		return err
	})
	return out, err
}

// SignIn spends a sign-in link and starts a session for its account in
// the browser c.
func (s *Service) SignIn(ctx context.Context, secret string, c SessionClient) (StartedSession, error) {
	var out StartedSession
	err := s.store.Update(ctx, func(tx Tx) error {
		if err := s.rates.take(SignInLinkAddrLimit, c.Address, tx.Now()); err != nil {
			return err
		}
		l, err := usableLink(ctx, tx, secret)
		if err != nil {
			return err
		}
		if ok, err := tx.SpendLoginLink(ctx, l.ID, tx.Now()); err != nil || !ok {
			return joinErrors(err, Errorf(CodeLoginLinkUnusable, "this sign-in link has been used already"))
		}
		out, err = openSession(ctx, tx, l.UserID, SessionStart{Via: l.Via, LinkID: l.ID, SessionClient: c})
		return err
	})
	return out, err
}

// SessionClient is the browser a session begins in, as its request showed
// it: what the person's list of devices names it by.
type SessionClient struct {
	UserAgent string
	Address   string
}

// SessionStart is how a session begins: the way in ("link", "passkey",
// "invite", "device_link", "tailscale"), the sign-in link spent if one
// was, and the browser.
type SessionStart struct {
	Via    string
	LinkID string
	SessionClient
}

// userAgentKept bounds the User-Agent header a session keeps: enough for
// any browser's, not a place to store a client's essay.
const userAgentKept = 512

// openSession starts a session for the account userID in tx: every way in
// ends here, so that each is stored and recorded alike. The sign-in is an
// event of the account (no workspace's, so no feed or webhook carries
// it); the address is used for rate limits, never kept.
func openSession(ctx context.Context, tx Tx, userID string, st SessionStart) (StartedSession, error) {
	in, err := tx.Instance(ctx)
	if err != nil {
		return StartedSession{}, err
	}
	prefix, sec, hash := newSecret()
	now := tx.Now()
	ss := Session{ID: newID(), Prefix: prefix, Hash: hash, UserID: userID, LinkID: st.LinkID, LastSeenAt: now,
		IdleUntil: now.Add(SessionIdleFor(in.SessionIdleDays)), ExpiresAt: now.Add(SessionMaxLifetime), CreatedAt: now,
		Via: st.Via, UserAgent: truncateRunes(st.UserAgent, userAgentKept)}
	if err := tx.InsertSession(ctx, &ss); err != nil {
		return StartedSession{}, err
	}
	who := Actor{User: User{ID: userID}, Interface: "web"}
	if err := record(ctx, tx, who, Event{EntityType: "user", EntityID: userID, Action: "session.started",
		Changes: map[string]any{"via": st.Via, "session": ss.ID}}); err != nil {
		return StartedSession{}, err
	}
	return StartedSession{Session: ss, Secret: sec}, nil
}

// usableLink finds the link a secret names and refuses it when it is
// unknown, spent, revoked, expired or its account is deactivated.
func usableLink(ctx context.Context, tx Tx, secret string) (LoginLink, error) {
	unusable := Errorf(CodeLoginLinkUnusable, "this sign-in link is unknown, used, expired or revoked")
	prefix, ok := secretPrefix(secret)
	if !ok {
		return LoginLink{}, unusable
	}
	l, err := tx.LoginLinkByPrefix(ctx, prefix)
	if CodeOf(err) == CodeNotFound {
		return LoginLink{}, unusable
	}
	if err != nil {
		return LoginLink{}, err
	}
	sum := sha256.Sum256([]byte(secret))
	if subtle.ConstantTimeCompare(l.Hash, sum[:]) != 1 || l.SpentAt != nil || l.RevokedAt != nil || !tx.Now().Before(l.ExpiresAt) {
		return LoginLink{}, unusable
	}
	u, err := tx.UserByID(ctx, l.UserID)
	if err != nil {
		return LoginLink{}, err
	}
	if !u.Active {
		return LoginLink{}, unusable
	}
	return l, nil
}

// AuthenticateSession resolves a tend_session cookie to its account. Like a
// credential it is checked on every request (revocation, idle and absolute
// expiry, a deactivated account or chain); its use slides the idle expiry,
// written at most once a minute. A standby reads it without sliding it:
// its copy takes no writes, and the primary's sliding reaches it.
func (s *Service) AuthenticateSession(ctx context.Context, secret, iface string) (Actor, error) {
	denied := Errorf(CodeUnauthorized, "the session has ended; sign in again")
	prefix, ok := secretPrefix(secret)
	if !ok {
		return Actor{}, denied
	}
	var a Actor
	standby := s.standby()
	run := s.store.Update
	if standby {
		run = s.store.View
	}
	err := run(ctx, func(tx Tx) error {
		c, err := tx.SessionByPrefix(ctx, prefix)
		if CodeOf(err) == CodeNotFound {
			return denied
		}
		if err != nil {
			return err
		}
		sum := sha256.Sum256([]byte(secret))
		ss, now := c.Session, tx.Now()
		if subtle.ConstantTimeCompare(ss.Hash, sum[:]) != 1 || !ss.Usable(now) || !c.ChainActive {
			return denied
		}
		a = Actor{User: c.User, Interface: iface, SessionID: ss.ID}
		if standby || now.Sub(ss.LastSeenAt) < sessionTouchResolution {
			return nil
		}
		return tx.TouchSession(ctx, ss.ID, now, now.Add(c.IdleLifetime))
	})
	return a, err
}

// EndSession revokes the session the caller presented (DELETE /v1/session).
func (s *Service) EndSession(ctx context.Context, a Actor) error {
	if a.SessionID == "" {
		return Errorf(CodeNotASession, "DELETE /v1/session signs out a browser session; revoke a token with DELETE /v1/tokens/{id}")
	}
	return s.store.Update(ctx, func(tx Tx) error {
		return tx.RevokeSession(ctx, a.SessionID, tx.Now())
	})
}

// SignOut revokes every live session and unspent sign-in link of an
// account. An account may sign itself out everywhere with account:write,
// like every other change to its own account, so a narrowed credential
// cannot lock its person out of the browser; another account needs
// instance:user_create, the permission that may deactivate it.
func (s *Service) SignOut(ctx context.Context, a Actor, username string) (SignedOut, error) {
	return s.signOut(ctx, a, username, "")
}

// SignOutOthers signs the caller's own account out everywhere but the
// browser session it calls from ("Sign out everywhere else"; POST
// /v1/users/{username}/signout?keep=current), by SignOut's rule.
func (s *Service) SignOutOthers(ctx context.Context, a Actor, username string) (SignedOut, error) {
	if a.SessionID == "" {
		return SignedOut{}, Errorf(CodeNotASession, "keep=current keeps the browser session you call from; call it from one")
	}
	if !strings.EqualFold(username, a.User.Username) {
		return SignedOut{}, Invalidf("query.keep", "keep=current keeps your own session; it signs out only your own account")
	}
	return s.signOut(ctx, a, username, a.SessionID)
}

// signOut is SignOut keeping the session keep (none when empty).
func (s *Service) signOut(ctx context.Context, a Actor, username, keep string) (SignedOut, error) {
	var out SignedOut
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		self := !a.system && strings.EqualFold(username, a.User.Username)
		if self && !acc.can(PermAccountWrite) {
			return Errorf(CodeCredentialNarrowed, "signing your own account out everywhere needs a credential with the %s scope", PermAccountWrite)
		}
		if !self && !acc.can(PermUserCreate) {
			return NotFound("account")
		}
		u := a.User
		if !self {
			if u, err = tx.UserByName(ctx, username); err != nil {
				return notFoundAs(err, "account")
			}
		}
		out, err = tx.RevokeSignIns(ctx, u.ID, keep, tx.Now())
		return err
	}))
	return out, err
}

// LocalSignIn is a sign-in link minted on the database file, with where
// tend serve last said it listens, to build the link's URL from.
type LocalSignIn struct {
	IssuedLoginLink
	Serving Serving
}

// LocalLoginLink mints a sign-in link with the authority of whoever can
// open the database file (tend signin, and tend serve's first start); with
// no username it is for the oldest active administrator.
func (s *Service) LocalLoginLink(ctx context.Context, username string) (LocalSignIn, error) {
	var out LocalSignIn
	err := s.store.Update(ctx, func(tx Tx) error {
		u, sv, err := localAccount(ctx, tx, username)
		if err != nil {
			return err
		}
		out.Serving = sv
		out.IssuedLoginLink, err = mintLoginLink(ctx, tx, SystemActor("cli"), u, "link")
		return err
	})
	return out, err
}
