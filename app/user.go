package app

import (
	"context"
	"time"
)

// User is an account: a person or a service account (an agent). An agent
// answers to a responsible account, a person directly or through other agents.
type User struct {
	ID               string
	Seq              int64 // creation order, for paging
	Username         string
	DisplayName      string
	Email            string
	Timezone         string
	IsServiceAccount bool
	IsSuperuser      bool
	AnswersToID      string
	AnswersTo        string // username of AnswersToID
	Responsible      string // username of the person at the top of the chain
	Active           bool
	DeactivatedAt    *time.Time
	CreatedAt        time.Time
	UpdatedAt        time.Time
	Version          int
	// ReminderMinute is the time of day an all-day due reminds this
	// person at, in minutes after midnight in their zone.
	ReminderMinute int
	// DefaultReminders are what a new dated task they create takes when
	// it names none.
	DefaultReminders []Reminder
	// DigestMinute is the time of day, in minutes after midnight in their
	// zone, their daily digest is queued at; nil is off.
	DigestMinute *int
	// DigestDay is the day (YYYY-MM-DD, their zone) the digest was last
	// queued.
	DigestDay string
	// TailscaleLogin is the Tailscale login (case-folded) that signs this
	// account in under tend serve --trust-tailscale; empty for none.
	TailscaleLogin string
}

type userTx interface {
	UserByID(ctx context.Context, id string) (User, error)
	UserByName(ctx context.Context, username string) (User, error)
	InsertUser(ctx context.Context, u *User) error
	UpdateUser(ctx context.Context, u *User) error
	// Users lists accounts oldest first after AfterSeq.
	Users(ctx context.Context, f UserFilter) ([]User, error)
	CountUsers(ctx context.Context, f UserFilter) (int, error)
	// ActiveAdministrators counts active people who are administrators.
	ActiveAdministrators(ctx context.Context) (int, error)
	// Administrators lists the usernames of the active people who
	// administer the instance, oldest first.
	Administrators(ctx context.Context) ([]string, error)
	// AnswersToChain lists the ids an account answers to, nearest first.
	AnswersToChain(ctx context.Context, id string) ([]string, error)
}

// UserFilter selects accounts. AnswersToID reaches agents answerable to that
// account directly or through other agents.
type UserFilter struct {
	AnswersToID string
	AfterSeq    int64
	Limit       int
}

// UserQuery is GET /v1/users.
type UserQuery struct {
	AnswersTo    string
	Limit        int
	Cursor       string
	IncludeTotal bool
}

// UserPage is one page of accounts.
type UserPage struct {
	Items []User
	Page  Page
}

// UserCreate is a new account (POST /v1/users).
type UserCreate struct {
	Username         string
	DisplayName      string
	Email            string
	Timezone         string
	IsServiceAccount bool
	AnswersTo        string
	IsSuperuser      bool
}

// UserUpdate is a change to an account (PATCH /v1/users/{username}).
type UserUpdate struct {
	Active      Patch[bool]
	AnswersTo   Patch[string]
	Timezone    Patch[string]
	DisplayName Patch[string]
	IsSuperuser Patch[bool]
	// ReminderTime ("09:00") and DefaultReminders are the account's own
	// settings, which only it may change.
	ReminderTime     Patch[string]
	DefaultReminders Patch[[]Reminder]
	// DigestTime ("07:30") is when the daily digest comes; null is off.
	DigestTime Patch[string]
	// TailscaleLogin links the account to a Tailscale login; null unlinks.
	TailscaleLogin Patch[string]
}

func (s *Service) validateUserCreate(in UserCreate) error {
	errs := []error{checkUsername("body.username", in.Username),
		s.checkText("body.display_name", in.DisplayName, maxDisplayName), checkEmail("body.email", in.Email)}
	if in.Timezone != "" {
		errs = append(errs, checkTimezone("body.timezone", in.Timezone))
	}
	if in.IsServiceAccount && in.AnswersTo == "" {
		errs = append(errs, Invalidf("body.answers_to", "a service account needs the username of the account it answers to"))
	}
	if !in.IsServiceAccount && in.AnswersTo != "" {
		errs = append(errs, Invalidf("body.answers_to", "only a service account answers to somebody"))
	}
	if in.IsServiceAccount && in.IsSuperuser {
		errs = append(errs, Invalidf("body.is_superuser", "an administrator is a person, not a service account"))
	}
	return joinErrors(errs...)
}

// CreateUser creates an account. It belongs to no workspace: joining one is a
// separate act with a separate permission.
func (s *Service) CreateUser(ctx context.Context, a Actor, in UserCreate) (User, error) {
	if err := s.validateUserCreate(in); err != nil {
		return User{}, err
	}
	var u User
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		if err := acc.require(PermUserCreate); err != nil {
			return err
		}
		if in.IsSuperuser {
			if err := acc.require(PermInstanceAdmin); err != nil {
				return err
			}
		}
		u, err = insertUser(ctx, tx, a, in)
		return err
	}))
	return u, err
}

func insertUser(ctx context.Context, tx Tx, a Actor, in UserCreate) (User, error) {
	u := User{ID: newID(), Username: in.Username, DisplayName: in.DisplayName, Email: in.Email,
		Timezone: in.Timezone, IsServiceAccount: in.IsServiceAccount, IsSuperuser: in.IsSuperuser,
		Active: true, CreatedAt: tx.Now(), UpdatedAt: tx.Now(), Version: 1, ReminderMinute: DefaultReminderMinute}
	if in.AnswersTo != "" {
		boss, err := tx.UserByName(ctx, in.AnswersTo)
		if err != nil {
			return User{}, bodyRef(err, "body.answers_to", "no such account")
		}
		if !boss.Active {
			return User{}, FieldErrorf(CodeAccountInactive, "body.answers_to", "%s is deactivated and cannot take responsibility for an agent", boss.Username)
		}
		u.AnswersToID = boss.ID
	}
	if err := tx.InsertUser(ctx, &u); err != nil {
		if CodeOf(err) == CodeConflict {
			return User{}, Errorf(CodeConflict, "the username %q is taken", in.Username)
		}
		return User{}, err
	}
	if err := record(ctx, tx, a, Event{EntityType: "user", EntityID: u.ID, Action: "user.created",
		Changes: map[string]any{"username": u.Username, "is_service_account": u.IsServiceAccount}}); err != nil {
		return User{}, err
	}
	return tx.UserByID(ctx, u.ID)
}

// User returns one account by username, case-insensitively. Any
// authenticated caller may read the directory.
func (s *Service) User(ctx context.Context, a Actor, username string) (User, error) {
	var u User
	err := s.store.View(ctx, func(tx Tx) (err error) {
		u, err = tx.UserByName(ctx, username)
		if CodeOf(err) == CodeNotFound {
			return NotFound("account")
		}
		return err
	})
	return u, err
}

// Users lists accounts oldest first, optionally only the agents answerable to one.
func (s *Service) Users(ctx context.Context, a Actor, q UserQuery) (UserPage, error) {
	limit, err := s.pageLimit(q.Limit)
	if err != nil {
		return UserPage{}, err
	}
	var f UserFilter
	cur, err := decodeCursor(q.Cursor, "users", q.AnswersTo)
	if err != nil {
		return UserPage{}, err
	}
	f.AfterSeq = cur.Seq
	f.Limit = limit + 1
	var out UserPage
	err = s.store.View(ctx, func(tx Tx) error {
		if q.AnswersTo != "" {
			boss, err := tx.UserByName(ctx, q.AnswersTo)
			if err != nil {
				return bodyRef(err, "query.answers_to", "no such account")
			}
			f.AnswersToID = boss.ID
		}
		us, err := tx.Users(ctx, f)
		if err != nil {
			return err
		}
		us, out.Page = cutPage(us, limit, "users", q.AnswersTo, func(u User) cursorKey { return cursorKey{Seq: u.Seq} })
		out.Items = us
		if q.IncludeTotal {
			f.AfterSeq, f.Limit = 0, 0
			n, err := tx.CountUsers(ctx, f)
			if err != nil {
				return err
			}
			out.Page.Total = &n
		}
		return nil
	})
	return out, err
}

// UpdateUser changes an account. Handover happens before deactivation when
// both are sent, so an agent can be moved off a person who is leaving.
func (s *Service) UpdateUser(ctx context.Context, a Actor, username string, in UserUpdate) (User, error) {
	if err := s.validateUserUpdate(in); err != nil {
		return User{}, err
	}
	var u User
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		u, err = tx.UserByName(ctx, username)
		if err != nil {
			return notFoundAs(err, "account")
		}
		changes, err := applyUserUpdate(ctx, tx, acc, &u, in)
		if err != nil || len(changes) == 0 {
			return err
		}
		u.UpdatedAt = tx.Now()
		if changes["digest_time"] != nil || (changes["timezone"] != nil && u.DigestMinute != nil) {
			if err := startDigest(ctx, tx, &u); err != nil {
				return err
			}
		}
		if err := tx.UpdateUser(ctx, &u); err != nil {
			return err
		}
		if changes["reminder_time"] != nil || changes["timezone"] != nil {
			if err := moveReminders(ctx, tx, u, changes["timezone"] != nil); err != nil {
				return err
			}
		}
		if err := record(ctx, tx, a, Event{EntityType: "user", EntityID: u.ID, Action: "user.updated", Changes: changes}); err != nil {
			return err
		}
		u, err = tx.UserByID(ctx, u.ID)
		return err
	}))
	return u, err
}

func (s *Service) validateUserUpdate(in UserUpdate) error {
	var errs []error
	if in.Timezone.Set && !in.Timezone.Null {
		errs = append(errs, checkTimezone("body.timezone", in.Timezone.Value))
	}
	if in.DisplayName.Set && !in.DisplayName.Null {
		errs = append(errs, s.checkText("body.display_name", in.DisplayName.Value, maxDisplayName))
	}
	if in.Active.Set && in.Active.Null {
		errs = append(errs, Invalidf("body.active", "active is true or false"))
	}
	if in.IsSuperuser.Set && in.IsSuperuser.Null {
		errs = append(errs, Invalidf("body.is_superuser", "is_superuser is true or false"))
	}
	if in.ReminderTime.Set {
		if _, ok := ParseClock(in.ReminderTime.Value); !ok && !in.ReminderTime.Null {
			errs = append(errs, Invalidf("body.reminder_time", "a time of day, as 09:00 or 18:30; got %q", in.ReminderTime.Value))
		}
	}
	if in.DigestTime.Set && !in.DigestTime.Null {
		if _, ok := ParseClock(in.DigestTime.Value); !ok {
			errs = append(errs, Invalidf("body.digest_time", "a time of day, as 07:30, or null for no digest; got %q", in.DigestTime.Value))
		}
	}
	if in.DefaultReminders.Set && !in.DefaultReminders.Null {
		errs = append(errs, checkReminders("body.default_reminders", in.DefaultReminders.Value, true)...)
	}
	return joinErrors(errs...)
}

// applyUserUpdate checks each requested change against the caller's rights
// and the account rules, applies it to u, and returns what changed.
func applyUserUpdate(ctx context.Context, tx Tx, acc *access, u *User, in UserUpdate) (map[string]any, error) {
	changes := map[string]any{}
	self := !acc.actor.system && acc.actor.User.ID == u.ID
	own := in.Timezone.Set || in.ReminderTime.Set || in.DefaultReminders.Set || in.DigestTime.Set
	if self && (own || in.DisplayName.Set) && !acc.can(PermAccountWrite) {
		return nil, Errorf(CodeCredentialNarrowed, "changing your own account needs a credential with the %s scope", PermAccountWrite)
	}
	if in.Timezone.Set {
		if !self {
			return nil, Errorf(CodeTimezoneNotOwn, "only %s can change their own timezone", u.Username)
		}
		changes["timezone"] = map[string]any{"from": u.Timezone, "to": in.Timezone.Value}
		u.Timezone = in.Timezone.Value
	}
	if err := applyReminderSettings(u, in, self, changes); err != nil {
		return nil, err
	}
	if in.DisplayName.Set {
		if !self {
			if err := acc.require(PermUserCreate); err != nil {
				return nil, err
			}
		}
		changes["display_name"] = map[string]any{"from": u.DisplayName, "to": in.DisplayName.Value}
		u.DisplayName = in.DisplayName.Value
	}
	if in.AnswersTo.Set {
		if err := handOver(ctx, tx, acc, u, in.AnswersTo); err != nil {
			return nil, err
		}
		changes["answers_to"] = in.AnswersTo.Value
	}
	if in.IsSuperuser.Set && in.IsSuperuser.Value != u.IsSuperuser {
		if err := setSuperuser(ctx, tx, acc, u, in.IsSuperuser.Value); err != nil {
			return nil, err
		}
		changes["is_superuser"] = u.IsSuperuser
	}
	if in.Active.Set && in.Active.Value != u.Active {
		if err := setActive(ctx, tx, acc, u, in.Active.Value); err != nil {
			return nil, err
		}
		changes["active"] = u.Active
	}
	if in.TailscaleLogin.Set {
		if err := acc.require(PermUserCreate); err != nil {
			return nil, err
		}
		if err := linkTailscale(ctx, tx, u, in.TailscaleLogin.Value, changes); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

func handOver(ctx context.Context, tx Tx, acc *access, u *User, to Patch[string]) error {
	if err := acc.require(PermUserCreate); err != nil {
		return err
	}
	if to.Null || to.Value == "" {
		return Invalidf("body.answers_to", "a service account always answers to somebody")
	}
	boss, err := tx.UserByName(ctx, to.Value)
	if err != nil {
		return bodyRef(err, "body.answers_to", "no such account")
	}
	if !boss.Active {
		return FieldErrorf(CodeAccountInactive, "body.answers_to", "%s is deactivated and cannot take responsibility for an agent", boss.Username)
	}
	chain, err := tx.AnswersToChain(ctx, boss.ID)
	if err != nil {
		return err
	}
	if boss.ID == u.ID || has(chain, u.ID) {
		return FieldErrorf(CodeCycle, "body.answers_to", "%s already answers to %s; the chain would loop", boss.Username, u.Username)
	}
	if !u.IsServiceAccount {
		return handOverAgents(ctx, tx, acc, u, boss)
	}
	u.AnswersToID = boss.ID
	return nil
}

// handOverAgents moves the agents answering directly to person u over to
// boss, so that deactivating u in the same PATCH leaves them working.
func handOverAgents(ctx context.Context, tx Tx, acc *access, u *User, boss User) error {
	agents, err := tx.Users(ctx, UserFilter{AnswersToID: u.ID})
	if err != nil {
		return err
	}
	for _, g := range agents {
		if g.AnswersToID != u.ID {
			continue
		}
		g.AnswersToID, g.UpdatedAt = boss.ID, tx.Now()
		if err := tx.UpdateUser(ctx, &g); err != nil {
			return err
		}
		if err := record(ctx, tx, acc.actor, Event{EntityType: "user", EntityID: g.ID, Action: "user.updated",
			Changes: map[string]any{"answers_to": map[string]any{"from": u.Username, "to": boss.Username}}}); err != nil {
			return err
		}
	}
	return nil
}

func setSuperuser(ctx context.Context, tx Tx, acc *access, u *User, on bool) error {
	if err := acc.require(PermInstanceAdmin); err != nil {
		return err
	}
	if on && u.IsServiceAccount {
		return Invalidf("body.is_superuser", "an administrator is a person, not a service account")
	}
	if !on && u.Active {
		if err := keepOneAdministrator(ctx, tx); err != nil {
			return err
		}
	}
	u.IsSuperuser = on
	return nil
}

func setActive(ctx context.Context, tx Tx, acc *access, u *User, on bool) error {
	if err := acc.require(PermUserCreate); err != nil {
		return err
	}
	if on {
		u.Active, u.DeactivatedAt = true, nil
		return nil
	}
	if u.IsSuperuser && !u.IsServiceAccount {
		if err := keepOneAdministrator(ctx, tx); err != nil {
			return err
		}
	}
	now := tx.Now()
	u.Active, u.DeactivatedAt = false, &now
	_, err := tx.RevokeSignIns(ctx, u.ID, "", now)
	return err
}

// keepOneAdministrator refuses a change that would leave nobody able to
// administer the instance. The count runs inside the write transaction, so
// two administrators deactivating each other at once cannot both succeed.
func keepOneAdministrator(ctx context.Context, tx Tx) error {
	n, err := tx.ActiveAdministrators(ctx)
	if err != nil {
		return err
	}
	if n <= 1 {
		return Errorf(CodeLastAdministrator, "this is the last active administrator; make somebody else an administrator first")
	}
	return nil
}
