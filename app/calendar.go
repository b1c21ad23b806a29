package app

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Calendar is an iCalendar feed: a URL that calendar apps poll without
// logging in. Like a credential, only the SHA-256 of its secret is stored;
// Prefix is the public half that addresses it. What the feed holds is
// decided at every fetch by what its owner may see then.
type Calendar struct {
	ID             string
	Prefix         string
	Hash           []byte
	SecretRev      int // moves on every reset
	Title          string
	UserID         string
	Username       string
	CreatedByToken string
	WorkspaceID    string
	Audience       string // CalendarAudienceMe or CalendarAudienceWorkspace
	ProjectID      string
	ProjectKey     string
	ItemTypeIDs    []string // nil: every task type
	ItemTypes      []string
	ExpiresAt      *time.Time
	LastPolledAt   *time.Time
	RevokedAt      *time.Time
	ETag           string     // the ETag last served
	ChangedAt      *time.Time // when the ETag last changed: Last-Modified
	CreatedAt      time.Time
	// Stranded is set where a feed is read with its owner (the feed
	// itself, the listing, reset; see CalendarCheck.strand): the owner, or
	// anyone up the owner's chain of responsibility, is deactivated, or the
	// owner is not a member of the feed's workspace or that is in the
	// trash. Such a feed answers nothing, though it is neither revoked nor
	// expired.
	Stranded bool
}

// The audiences of a feed.
const (
	CalendarAudienceMe        = "me"        // work assigned to or claimed by the owner
	CalendarAudienceWorkspace = "workspace" // everything the owner can see in the workspace
)

// Usable reports whether the feed answers at now (to its secret).
func (c Calendar) Usable(now time.Time) bool {
	return c.RevokedAt == nil && (c.ExpiresAt == nil || now.Before(*c.ExpiresAt)) && !c.Stranded
}

// IssuedCalendar is a feed at the one moment its secret exists in readable
// form: creating and resetting it.
type IssuedCalendar struct {
	Calendar
	Secret string
}

// CalendarFilter selects feeds: all of them, those of the account UserID,
// or those the credential TokenID created.
type CalendarFilter = TokenFilter

type calendarTx interface {
	InsertCalendar(ctx context.Context, c *Calendar) error
	CalendarByID(ctx context.Context, id string) (Calendar, error)
	CalendarByPrefix(ctx context.Context, prefix string) (Calendar, error)
	// CalendarChecks lists the feeds the filter selects with their owners,
	// newest first.
	CalendarChecks(ctx context.Context, f CalendarFilter) ([]CalendarCheck, error)
	RevokeCalendar(ctx context.Context, id string, at time.Time) error
	// ResetCalendar stores a new secret hash and moves secret_rev.
	ResetCalendar(ctx context.Context, id string, hash []byte) error
	// TouchCalendar records a fetch: last_polled_at, and the ETag served
	// (changed_at moves when it differs from the one stored).
	TouchCalendar(ctx context.Context, id string, at time.Time, etag string) error
	calendarFeedTx
}

// calendarReach is which feeds the caller may list, revoke and reset. It
// mirrors tokenReach: with credential:manage every feed of the account (of
// the instance, with instance:admin as well); without it, only the feeds
// the credential presented created.
func calendarReach(acc *access) CalendarFilter { return tokenReach(acc) }

func reaches(f CalendarFilter, c Calendar) bool {
	switch {
	case f.All:
		return true
	case f.UserID != "":
		return c.UserID == f.UserID
	}
	return f.TokenID != "" && c.CreatedByToken == f.TokenID
}

// CalendarCreate is a calendar feed to issue (POST /v1/calendars).
type CalendarCreate struct {
	Title     string
	Audience  string
	Project   string
	ItemTypes []string
	ExpiresAt *time.Time
	Workspace string // workspace_id in the query
}

func checkAudience(loc, audience string) error {
	if audience != CalendarAudienceMe && audience != CalendarAudienceWorkspace {
		return Invalidf(loc, "audience is %q or %q", CalendarAudienceMe, CalendarAudienceWorkspace)
	}
	return nil
}

func (s *Service) validateCalendarCreate(in *CalendarCreate) error {
	if in.Title == "" {
		in.Title = "tend"
	}
	if in.Audience == "" {
		in.Audience = CalendarAudienceMe
	}
	errs := []error{s.checkTitle("body.title", in.Title),
		checkCount("body.item_types", len(in.ItemTypes), s.limits.MaxCredentialScopes, "max_credential_scopes")}
	errs = append(errs, checkAudience("body.audience", in.Audience))
	if in.ItemTypes != nil && len(in.ItemTypes) == 0 {
		errs = append(errs, Invalidf("body.item_types", "leave item_types out for every type; an empty list would show nothing"))
	}
	return joinErrors(errs...)
}

// CreateCalendar issues a feed for the caller in one workspace. The feed
// never reaches further than the credential that creates it: a credential
// narrowed to projects must name one of them, and the feed expires no later
// than the credential does.
func (s *Service) CreateCalendar(ctx context.Context, a Actor, in CalendarCreate) (IssuedCalendar, error) {
	if err := s.validateCalendarCreate(&in); err != nil {
		return IssuedCalendar{}, err
	}
	var out IssuedCalendar
	err := s.store.Update(ctx, withScope(ctx, a, in.Workspace, func(tx Tx, sc *scope) error {
		if a.system {
			return Errorf(CodeForbidden, "a calendar feed belongs to an account")
		}
		if err := sc.ws.require(PermItemRead); err != nil {
			return err
		}
		c := Calendar{ID: newID(), Title: in.Title, UserID: a.User.ID, Username: a.User.Username, CreatedByToken: a.tokenID(),
			WorkspaceID: sc.ws.Workspace.ID, Audience: in.Audience, ExpiresAt: in.ExpiresAt, CreatedAt: tx.Now(), SecretRev: 1}
		if err := calendarBounds(ctx, tx, sc, &c, in); err != nil {
			return err
		}
		var secret string
		c.Prefix, secret, c.Hash = newSecret()
		if err := tx.InsertCalendar(ctx, &c); err != nil {
			return err
		}
		if err := record(ctx, tx, a, Event{EntityType: "calendar", EntityID: c.ID, Action: "calendar.issued",
			Changes: map[string]any{"prefix": c.Prefix, "audience": c.Audience}}); err != nil {
			return err
		}
		stored, err := tx.CalendarByID(ctx, c.ID)
		out = IssuedCalendar{Calendar: stored, Secret: secret}
		return err
	}))
	return out, err
}

// calendarBounds resolves the feed's project and item types and checks
// them and its expiry against the credential creating it.
func calendarBounds(ctx context.Context, tx Tx, sc *scope, c *Calendar, in CalendarCreate) error {
	tok := sc.acc.actor.Token
	if in.Project != "" {
		n, err := sc.project(in.Project)
		if err != nil {
			return bodyRef(err, "body.project", "no such project: "+in.Project)
		}
		c.ProjectID = n.ID
	}
	if tok != nil && tok.ProjectScope != nil && c.ProjectID == "" {
		return FieldErrorf(CodeCalendarWider, "body.project", "this credential reads only some projects; name one of them as the feed's project")
	}
	for _, key := range in.ItemTypes {
		it, err := itemTypeFor(ctx, tx, c.WorkspaceID, "task", key, "body.item_types")
		if err != nil {
			return err
		}
		if !has(c.ItemTypeIDs, it.ID) {
			c.ItemTypeIDs = append(c.ItemTypeIDs, it.ID)
		}
	}
	if c.ExpiresAt != nil {
		v := c.ExpiresAt.UTC().Truncate(time.Millisecond)
		if !v.After(tx.Now()) {
			return Invalidf("body.expires_at", "expires_at must be in the future")
		}
		c.ExpiresAt = &v
	}
	if tok != nil && tok.ExpiresAt != nil {
		if c.ExpiresAt == nil {
			c.ExpiresAt = tok.ExpiresAt
		} else if c.ExpiresAt.After(*tok.ExpiresAt) {
			return FieldErrorf(CodeCalendarWider, "body.expires_at", "the credential expires at %s; a feed it creates cannot outlive it",
				tok.ExpiresAt.UTC().Format(time.RFC3339))
		}
	}
	return nil
}

// Calendars lists the feeds the caller may see (see calendarReach), newest
// first, each Usable exactly when its URL answers. Never a secret or a URL.
func (s *Service) Calendars(ctx context.Context, a Actor) ([]Calendar, error) {
	var out []Calendar
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		chks, err := tx.CalendarChecks(ctx, calendarReach(acc))
		if err != nil {
			return err
		}
		owners := map[string]*access{} // an account's feeds share their owner
		out = make([]Calendar, len(chks))
		for i, chk := range chks {
			owner, ok := owners[chk.Owner.ID]
			if !ok {
				if owner, err = ownerAccess(ctx, tx, chk.Owner); err != nil {
					return err
				}
				owners[chk.Owner.ID] = owner
			}
			chk.strand(owner)
			out[i] = chk.Calendar
		}
		return nil
	}))
	return out, err
}

// RevokeCalendar revokes a feed by id or prefix: its URL stops answering at
// once. Revoking one already revoked keeps the first time and is not an
// error; one beyond the caller's reach answers like one that does not exist.
func (s *Service) RevokeCalendar(ctx context.Context, a Actor, idOrPrefix string) (Calendar, error) {
	var out Calendar
	err := s.store.Update(ctx, func(tx Tx) error {
		c, err := reachableCalendar(ctx, tx, a, idOrPrefix)
		if err != nil {
			return err
		}
		if err := revokeCalendar(ctx, tx, a, c); err != nil {
			return err
		}
		out, err = tx.CalendarByID(ctx, c.ID)
		return err
	})
	return out, err
}

// revokeFeedsOf revokes the feeds the credential tokenID created, each
// recorded as calendar.revoked like a revocation by hand.
func revokeFeedsOf(ctx context.Context, tx Tx, a Actor, tokenID string) error {
	chks, err := tx.CalendarChecks(ctx, CalendarFilter{TokenID: tokenID})
	if err != nil {
		return err
	}
	for _, chk := range chks {
		if err := revokeCalendar(ctx, tx, a, chk.Calendar); err != nil {
			return err
		}
	}
	return nil
}

// revokeCalendar revokes c now and records calendar.revoked, unless it is
// revoked already: the first revocation's time stays.
func revokeCalendar(ctx context.Context, tx Tx, a Actor, c Calendar) error {
	if c.RevokedAt != nil {
		return nil
	}
	if err := tx.RevokeCalendar(ctx, c.ID, tx.Now()); err != nil {
		return err
	}
	return record(ctx, tx, a, Event{EntityType: "calendar", EntityID: c.ID, Action: "calendar.revoked",
		Changes: map[string]any{"prefix": c.Prefix}})
}

// ResetCalendar gives a feed a new secret, so a new URL: the old one stops
// answering at once. The prefix, the id and the events' UIDs stay, so a
// calendar app that subscribes to the new URL sees the same events. A
// revoked feed cannot be reset.
func (s *Service) ResetCalendar(ctx context.Context, a Actor, idOrPrefix string) (IssuedCalendar, error) {
	var out IssuedCalendar
	err := s.store.Update(ctx, func(tx Tx) error {
		c, err := reachableCalendar(ctx, tx, a, idOrPrefix)
		if err != nil {
			return err
		}
		if !c.Usable(tx.Now()) {
			return Errorf(CodeCalendarUnusable, "this feed answers nothing (revoked, expired, or its owner deactivated or no longer in its workspace): a new address would not answer either; create a new feed")
		}
		secret := c.Prefix + "_" + randomBase32(secretLength-prefixLength-1)
		if err := tx.ResetCalendar(ctx, c.ID, secretHash(secret)); err != nil {
			return err
		}
		if err := record(ctx, tx, a, Event{EntityType: "calendar", EntityID: c.ID, Action: "calendar.reset",
			Changes: map[string]any{"prefix": c.Prefix}}); err != nil {
			return err
		}
		stored, err := tx.CalendarByID(ctx, c.ID)
		out = IssuedCalendar{Calendar: stored, Secret: secret}
		return err
	})
	return out, err
}

func reachableCalendar(ctx context.Context, tx Tx, a Actor, idOrPrefix string) (Calendar, error) {
	acc, err := accessOf(ctx, tx, a)
	if err != nil {
		return Calendar{}, err
	}
	prefix := strings.ToLower(idOrPrefix)
	if _, perr := uuid.Parse(idOrPrefix); perr == nil {
		c, err := tx.CalendarByID(ctx, idOrPrefix)
		if err != nil {
			return Calendar{}, notFoundAs(err, "calendar")
		}
		prefix = c.Prefix
	}
	chk, err := tx.CalendarCheck(ctx, prefix)
	if err != nil {
		return Calendar{}, notFoundAs(err, "calendar")
	}
	if !reaches(calendarReach(acc), chk.Calendar) {
		return Calendar{}, NotFound("calendar")
	}
	owner, err := ownerAccess(ctx, tx, chk.Owner)
	if err != nil {
		return Calendar{}, err
	}
	chk.strand(owner)
	return chk.Calendar, nil
}
