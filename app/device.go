package app

import (
	"context"
	"strings"
	"time"
)

// The browser sign-in of a terminal (tend login --browser), in the manner
// of RFC 8628: the terminal asks for a device code and a user code, the
// signed-in person approves the user code in the browser, and the terminal,
// polling with the device code, receives a credential of that person
// pinned to the workspace they chose.

// Device authorization's fixed terms.
const (
	DeviceCodeLifetime = 10 * time.Minute
	// DeviceInterval is how long a terminal waits between polls; each poll
	// sooner is answered slow_down and adds DeviceSlowDown to it.
	DeviceInterval = 5 * time.Second
	DeviceSlowDown = 5 * time.Second
	// userCodeAlphabet leaves out vowels (no words) and letters read alike.
	userCodeAlphabet = "BCDFGHJKLMNPQRSTVWXZ"
	// DeviceGuessesPerSession and DeviceGuesses bound the user codes that
	// name no pending request (mistyped, guessed, decided or expired)
	// which one browser session, and all sessions together, may try within
	// any DeviceCodeLifetime. With 20^8 codes, the instance-wide bound
	// leaves a guesser about one chance in 250 million of hitting a given
	// code in its whole life (docs/api.md, "A terminal's sign-in through
	// the browser").
	DeviceGuessesPerSession = 10
	DeviceGuesses           = 100
	// DeviceStartsPerAddress bounds the sign-ins one client address may
	// start within any DeviceCodeLifetime: starting needs no credential.
	DeviceStartsPerAddress = 20
)

// deviceLimits counts what the device flow bounds (limit.go).
type deviceLimits struct {
	sessionGuesses, guesses *attempts
}

// deviceStarts bounds the sign-ins one address starts.
var deviceStarts = RateLimit{Name: "device.start", Max: DeviceStartsPerAddress, Window: DeviceCodeLifetime,
	What: "terminal sign-ins started from this address"}

func newDeviceLimits() deviceLimits {
	return deviceLimits{sessionGuesses: newAttempts(DeviceGuessesPerSession, DeviceCodeLifetime),
		guesses: newAttempts(DeviceGuesses, DeviceCodeLifetime)}
}

// DeviceCode is one device authorization as stored: never its codes.
type DeviceCode struct {
	ID          string
	Client      string // the name the terminal gave, shown to the person
	Interval    int    // seconds
	PolledAt    *time.Time
	ApprovedBy  string
	WorkspaceID string
	ApprovedAt  *time.Time
	DeniedAt    *time.Time
	SpentAt     *time.Time
	ExpiresAt   time.Time
	CreatedAt   time.Time
}

// pending reports whether the person may still approve or deny it at now.
func (d DeviceCode) pending(now time.Time) bool {
	return d.ApprovedAt == nil && d.DeniedAt == nil && d.SpentAt == nil && now.Before(d.ExpiresAt)
}

// DeviceAuthorization is POST /v1/auth/device's answer: the one moment
// both codes exist in readable form.
type DeviceAuthorization struct {
	DeviceCode string
	UserCode   string
	ExpiresIn  int
	Interval   int
}

type deviceTx interface {
	InsertDeviceCode(ctx context.Context, d *DeviceCode, deviceHash, userHash []byte) error
	// DeviceCode reads one by the hash of its device code, or of its user
	// code when user is set.
	DeviceCode(ctx context.Context, hash []byte, user bool) (DeviceCode, error)
	UpdateDeviceCode(ctx context.Context, d *DeviceCode) error
}

// userCodeHash is what is stored of a user code: read as people type it,
// in either case, with or without the dash.
func userCodeHash(code string) []byte {
	return secretHash(strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(code)))
}

// newUserCode is eight letters of userCodeAlphabet (about 34 bits), shown
// as XXXX-XXXX; the ten minutes it lives and its single use bound guessing.
func newUserCode() string {
	b := []byte(randomBase32(8))
	for i := range b {
		b[i] = userCodeAlphabet[strings.IndexByte(base32Lower, b[i])%len(userCodeAlphabet)]
	}
	return string(b[:4]) + "-" + string(b[4:])
}

// StartDevice begins a browser sign-in for the terminal named client,
// asking from the client address addr.
func (s *Service) StartDevice(ctx context.Context, client, addr string) (DeviceAuthorization, error) {
	if client == "" {
		client = "tend"
	}
	if err := s.checkTitle("body.client_name", client); err != nil {
		return DeviceAuthorization{}, err
	}
	// A device code has a credential's shape, so that the access log's
	// redaction of secrets knows it wherever it strays.
	_, device, _ := newSecret()
	user := newUserCode()
	err := s.store.Update(ctx, func(tx Tx) error {
		now := tx.Now()
		if err := s.rates.take(deviceStarts, addr, now); err != nil {
			return err
		}
		d := DeviceCode{ID: newID(), Client: client, Interval: int(DeviceInterval / time.Second), ExpiresAt: now.Add(DeviceCodeLifetime), CreatedAt: now}
		return tx.InsertDeviceCode(ctx, &d, secretHash(device), userCodeHash(user))
	})
	return DeviceAuthorization{DeviceCode: device, UserCode: user, ExpiresIn: int(DeviceCodeLifetime / time.Second),
		Interval: int(DeviceInterval / time.Second)}, err
}

// deviceForPerson finds the pending request a user code names, for a
// signed-in browser only: a credential cannot approve one, so a leaked
// token never mints another. Unknown, decided and expired codes all
// answer not_found, and count as guesses: past the session's or the
// instance's bound every code is refused, the right one too, until the
// window moves on.
func (s *Service) deviceForPerson(ctx context.Context, tx Tx, a Actor, userCode string) (DeviceCode, error) {
	if a.SessionID == "" {
		return DeviceCode{}, Errorf(CodeForbidden, "a terminal's sign-in is approved in a signed-in browser, not with a credential")
	}
	now := tx.Now()
	if s.device.sessionGuesses.full(a.SessionID, now) || s.device.guesses.full("", now) {
		return DeviceCode{}, Errorf(CodeTooManyAttempts, "too many codes that name no sign-in were tried; wait a few minutes, then type the code your terminal shows now")
	}
	d, err := tx.DeviceCode(ctx, userCodeHash(userCode), true)
	if err == nil && !d.pending(now) {
		err = NotFound("sign-in code")
	}
	if CodeOf(err) == CodeNotFound {
		s.device.sessionGuesses.add(a.SessionID, now)
		s.device.guesses.add("", now)
	}
	return d, notFoundAs(err, "sign-in code")
}

// DeviceRequest is what the approval page shows of the request a user code
// names: the terminal's name.
func (s *Service) DeviceRequest(ctx context.Context, a Actor, userCode string) (DeviceCode, error) {
	var out DeviceCode
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, err = s.deviceForPerson(ctx, tx, a, userCode)
		return err
	})
	return out, err
}

// DecideDevice approves (pinning the credential to workspace, or the
// person's only one) or denies the request a user code names.
func (s *Service) DecideDevice(ctx context.Context, a Actor, userCode, workspace string, approve bool) error {
	return s.store.Update(ctx, func(tx Tx) error {
		d, err := s.deviceForPerson(ctx, tx, a, userCode)
		if err != nil {
			return err
		}
		now := tx.Now()
		if !approve {
			d.DeniedAt = &now
			return tx.UpdateDeviceCode(ctx, &d)
		}
		_, w, err := pickWorkspace(ctx, tx, a, workspace)
		if err != nil {
			return err
		}
		d.ApprovedBy, d.WorkspaceID, d.ApprovedAt = a.User.ID, w.Workspace.ID, &now
		return tx.UpdateDeviceCode(ctx, &d)
	})
}

// DeviceToken answers a terminal's poll with the device code: the
// credential once the person approved, issued as the person would issue
// it (never beyond their own reach) and pinned to the workspace chosen;
// else the RFC 8628 refusal that says why not yet, or not at all. A poll
// is recorded even when refused, so that polling too often is noticed.
func (s *Service) DeviceToken(ctx context.Context, deviceCode string) (IssuedToken, error) {
	var out IssuedToken
	var refusal error
	err := s.store.Update(ctx, func(tx Tx) error {
		d, err := tx.DeviceCode(ctx, secretHash(deviceCode), false)
		if err != nil && CodeOf(err) != CodeNotFound {
			return err
		}
		now := tx.Now()
		switch {
		case err != nil || d.SpentAt != nil:
			refusal = Errorf(CodeInvalidGrant, "no such device code, or it was used already: start again with tend login --browser")
			return nil
		case !now.Before(d.ExpiresAt):
			refusal = Errorf(CodeExpiredToken, "the sign-in code expired; start again with tend login --browser")
			return nil
		case d.DeniedAt != nil:
			refusal = Errorf(CodeAccessDenied, "the sign-in was denied in the browser")
			return nil
		case d.ApprovedAt == nil:
			refusal = Errorf(CodeAuthorizationPending, "waiting for the sign-in to be approved in the browser")
			if d.PolledAt != nil && now.Sub(*d.PolledAt) < time.Duration(d.Interval)*time.Second {
				d.Interval += int(DeviceSlowDown / time.Second)
				refusal = Errorf(CodeSlowDown, "polled too soon: wait %d seconds between polls", d.Interval)
			}
			d.PolledAt = &now
			return tx.UpdateDeviceCode(ctx, &d)
		}
		d.SpentAt = &now
		if err := tx.UpdateDeviceCode(ctx, &d); err != nil {
			return err
		}
		out, err = issueDeviceToken(ctx, tx, d)
		return err
	})
	if err == nil {
		err = refusal
	}
	return out, err
}

// issueDeviceToken issues the credential of an approved request, with the
// authority the approving person has now: one deactivated since, or whose
// chain is, gets nothing.
func issueDeviceToken(ctx context.Context, tx Tx, d DeviceCode) (IssuedToken, error) {
	u, err := tx.UserByID(ctx, d.ApprovedBy)
	if err != nil {
		return IssuedToken{}, err
	}
	if err := chainActive(ctx, tx, u); err != nil {
		return IssuedToken{}, err
	}
	var out IssuedToken
	err = withAccess(ctx, Actor{User: u, Interface: "web"}, func(tx Tx, acc *access) (err error) {
		out, err = issueToken(ctx, tx, acc, TokenCreate{Title: d.Client, Workspace: Patch[string]{Set: true, Value: d.WorkspaceID}})
		return err
	})(tx)
	return out, err
}
