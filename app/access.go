package app

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds on signing in (issue 38 §2), each counted per client address or
// per account: guessing at a link's secret is hopeless (160 random bits),
// so these bound a flood, not a guess, and are set well above what a
// person does by hand.
var (
	// SignInLinkAddrLimit bounds spending sign-in links from one address.
	// Showing a link's confirmation page and spending it count one each.
	SignInLinkAddrLimit = RateLimit{Name: "signin.link.addr", Max: 30, Window: 10 * time.Minute,
		What: "sign-ins from this address"}
	// LoginLinkUserLimit bounds minting sign-in links for one account.
	LoginLinkUserLimit = RateLimit{Name: "signin.login_link.user", Max: 30, Window: time.Hour,
		What: "sign-in links for this account"}
	// DeviceLinkUserLimit bounds minting device links for one account.
	DeviceLinkUserLimit = RateLimit{Name: "signin.device_link.user", Max: 10, Window: time.Hour,
		What: "device links for this account"}
	// TailscaleLoginLimit bounds sessions started from Tailscale's header:
	// behind tailscale serve every request comes from loopback, so the
	// key is the login the header names.
	TailscaleLoginLimit = RateLimit{Name: "signin.tailscale.login", Max: 30, Window: 10 * time.Minute,
		What: "sign-ins with this Tailscale login"}
)

// DeviceSession is one of a person's sessions as their list of devices
// shows it.
type DeviceSession struct {
	Session
	// Browser names the browser as a person reads it: "Firefox on Linux".
	Browser string
	// Current is the session the request came with.
	Current bool
}

// sessionsOwner resolves whose sessions a caller asks about and whether it
// may: its own with any credential that may change its account, another's
// with instance:user_create, the authority that may sign that account out
// (SignOut); anyone else's answers as if the account did not exist.
func sessionsOwner(ctx context.Context, tx Tx, acc *access, a Actor, username string) (User, error) {
	self := !a.system && (username == "" || strings.EqualFold(username, a.User.Username))
	if self && !acc.can(PermAccountWrite) {
		return User{}, Errorf(CodeCredentialNarrowed, "your sessions need a credential with the %s scope", PermAccountWrite)
	}
	if self {
		return a.User, nil
	}
	if !acc.can(PermUserCreate) {
		return User{}, NotFound("account")
	}
	u, err := tx.UserByName(ctx, username)
	return u, notFoundAs(err, "account")
}

// Sessions lists the live sessions of an account (the caller's own when
// username is empty), most recently used first.
func (s *Service) Sessions(ctx context.Context, a Actor, username string) ([]DeviceSession, error) {
	var out []DeviceSession
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		u, err := sessionsOwner(ctx, tx, acc, a, username)
		if err != nil {
			return err
		}
		ss, err := tx.LiveSessions(ctx, u.ID, tx.Now())
		out = make([]DeviceSession, len(ss))
		for i, x := range ss {
			out[i] = DeviceSession{Session: x, Browser: BrowserName(x.UserAgent), Current: x.ID == a.SessionID}
		}
		return err
	}))
	return out, err
}

// RevokeSession ends one live session of an account (the caller's own when
// username is empty); a session of anybody else answers not found. The
// revoked browser is signed out on its next request.
func (s *Service) RevokeSession(ctx context.Context, a Actor, username, id string) error {
	return s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		u, err := sessionsOwner(ctx, tx, acc, a, username)
		if err != nil {
			return err
		}
		ok, err := tx.RevokeUserSession(ctx, u.ID, id, tx.Now())
		if err != nil {
			return err
		}
		if !ok {
			return NotFound("session")
		}
		return nil
	}))
}

// CreateDeviceLink mints a single-use sign-in link for another device of
// the caller's own, valid DeviceLinkLifetime. Only the caller's own browser
// session or an unnarrowed credential may, as for CreateLoginLink: the
// session it opens carries the account's whole authority.
func (s *Service) CreateDeviceLink(ctx context.Context, a Actor) (IssuedLoginLink, error) {
	var out IssuedLoginLink
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		if a.system {
			return Errorf(CodeTokenForOther, "a device link is for a signed-in person's own devices")
		}
		if a.Token != nil && a.Token.Narrows() {
			return Errorf(CodeLoginLinkNarrowed, "a narrowed credential cannot open a browser session; use one that is not narrowed")
		}
		if err := s.rates.take(DeviceLinkUserLimit, a.User.ID, tx.Now()); err != nil {
			return err
		}
		out, err = mintLoginLink(ctx, tx, a, a.User, "device_link")
		return err
	}))
	return out, err
}

// TailscaleLogin folds a login as Tailscale-User-Login carries it to the
// form stored and compared: Tailscale logins are email-like names, which
// it does not tell apart by case.
func TailscaleLogin(login string) string { return strings.ToLower(strings.TrimSpace(login)) }

// maxTailscaleLogin bounds a login as stored (an email address's limit).
const maxTailscaleLogin = 254

// linkTailscale sets u's Tailscale login in changes and on u, refusing a
// login linked to another account.
func linkTailscale(ctx context.Context, tx Tx, u *User, login string, changes map[string]any) error {
	login = TailscaleLogin(login)
	if login == u.TailscaleLogin {
		return nil
	}
	if len(login) > maxTailscaleLogin || strings.ContainsAny(login, " \t\r\n") {
		return Invalidf("body.tailscale_login", "a Tailscale login, as alice@example.com or alice@github")
	}
	if login != "" {
		other, err := tx.UserByTailscaleLogin(ctx, login)
		if err == nil && other.ID != u.ID {
			return Errorf(CodeConflict, "the Tailscale login %s is linked to another account", login)
		}
		if err != nil && CodeOf(err) != CodeNotFound {
			return err
		}
	}
	changes["tailscale_login"] = map[string]any{"from": u.TailscaleLogin, "to": login}
	u.TailscaleLogin = login
	return nil
}

// ClaimTailscale links the caller's own account, which has none, to the
// Tailscale login its request carried from a trusted peer: once, by the
// person themself; after that only an administrator changes it.
func (s *Service) ClaimTailscale(ctx context.Context, a Actor, login string) (User, error) {
	var u User
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		if a.system || a.SessionID == "" {
			return Errorf(CodeNotASession, "a Tailscale login is claimed from a signed-in browser")
		}
		if u, err = tx.UserByID(ctx, a.User.ID); err != nil {
			return err
		}
		if u.TailscaleLogin != "" {
			return Errorf(CodeConflict, "your account is linked to %s already; an administrator changes it", u.TailscaleLogin)
		}
		if TailscaleLogin(login) == "" {
			return Invalidf("body.tailscale_login", "this request carried no Tailscale login")
		}
		changes := map[string]any{}
		if err := linkTailscale(ctx, tx, &u, login, changes); err != nil {
			return err
		}
		u.UpdatedAt = tx.Now()
		if err := tx.UpdateUser(ctx, &u); err != nil {
			return err
		}
		return record(ctx, tx, a, Event{EntityType: "user", EntityID: u.ID, Action: "user.updated", Changes: changes})
	}))
	return u, err
}

// TailscaleSignIn starts a session in browser c for the active account
// linked to login, a Tailscale-User-Login the server trusts (the web layer
// decides that: only from loopback, under --trust-tailscale). With no such
// account it answers tailscale_unlinked naming the instance's
// administrators, whom the person may ask.
func (s *Service) TailscaleSignIn(ctx context.Context, login string, c SessionClient) (StartedSession, error) {
	login = TailscaleLogin(login)
	var out StartedSession
	err := s.store.Update(ctx, func(tx Tx) error {
		if err := s.rates.take(TailscaleLoginLimit, login, tx.Now()); err != nil {
			return err
		}
		u, err := tx.UserByTailscaleLogin(ctx, login)
		if err == nil && (!u.Active || u.IsServiceAccount) {
			err = NotFound("account")
		}
		if CodeOf(err) == CodeNotFound {
			admins, aerr := tx.Administrators(ctx)
			if aerr != nil {
				return aerr
			}
			return &Error{Code: CodeTailscaleUnlinked, Detail: "You are " + login + " on Tailscale; no tend account is linked to that login. Ask " +
				joinWords(admins) + " (the instance's admins) to link it, or sign in another way and link it on your Account page."}
		}
		if err != nil {
			return err
		}
		out, err = openSession(ctx, tx, u.ID, SessionStart{Via: "tailscale", SessionClient: c})
		return err
	})
	return out, err
}

// truncateRunes cuts s to at most n runes.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// BrowserName names the browser a User-Agent header describes as a person
// reads it: "Firefox on Linux", "Safari on iPhone"; "Unknown browser" for
// one it cannot place. Order matters: Edge and Opera say Chrome too, and
// Chrome says Safari.
func BrowserName(ua string) string {
	browser := firstMatch(ua, "Unknown browser", [][2]string{
		{"Edg/", "Edge"}, {"EdgiOS/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"FxiOS/", "Firefox"},
		{"SamsungBrowser/", "Samsung Internet"}, {"CriOS/", "Chrome"}, {"Chromium/", "Chromium"}, {"Chrome/", "Chrome"},
		{"Safari/", "Safari"}, {"curl/", "curl"},
	})
	system := firstMatch(ua, "", [][2]string{
		{"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Android", "Android"}, {"CrOS", "ChromeOS"},
		{"Mac OS X", "macOS"}, {"Macintosh", "macOS"}, {"Windows", "Windows"}, {"Linux", "Linux"},
	})
	if system == "" {
		return browser
	}
	return browser + " on " + system
}

// firstMatch is the name paired with the first marker ua contains, else none.
func firstMatch(ua, none string, markers [][2]string) string {
	for _, m := range markers {
		if strings.Contains(ua, m[0]) {
			return m[1]
		}
	}
	return none
}
