package app

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// CalendarQuery is what the store reads for one feed: the owner's readable
// projects (every read filters through them), the feed's narrowing and the
// window of dates it covers.
type CalendarQuery struct {
	WorkspaceID string
	Readable    string // JSON array of the project ids whose items the owner may read
	AllReadable bool
	ProjectIDs  []string // nil: every readable project
	TypeIDs     []string // nil: every type
	UserID      string   // audience me: assigned to or claimed by this account
	Now         time.Time
	From, Until time.Time // the date (due, else start) lies in [From, Until)
	DoneSince   time.Time // finished work stays until this long after completion
	Limit       int
}

// CalendarStamp tells, without reading a feed's tasks, whether they may
// have changed: the newest event of the workspace (every change to a task,
// its project, tags or statuses records one) and, for a feed of the
// owner's own work, the owner's unexpired claims, which lapse without an
// event.
type CalendarStamp struct {
	LastEvent  int64
	Claims     int64
	NextExpiry string
}

// CalendarCheck is a feed with its owner and whether everyone up the
// owner's chain of responsibility is active.
type CalendarCheck struct {
	Calendar    Calendar
	Owner       User
	ChainActive bool
}

type calendarFeedTx interface {
	// CalendarCheck reads the feed with this prefix and its owner.
	CalendarCheck(ctx context.Context, prefix string) (CalendarCheck, error)
	// CalendarStamp reads the stamp in index lookups only.
	CalendarStamp(ctx context.Context, q CalendarQuery) (CalendarStamp, error)
	// CalendarTasks reads the tasks of a feed, earliest date first.
	CalendarTasks(ctx context.Context, q CalendarQuery) ([]FeedTask, error)
}

// FeedTask is a task as its feed's event shows it: the fields the event is
// written from and no others. A full Task is over a kilobyte, and a feed
// holds thousands.
type FeedTask struct {
	ID             string
	Ref            int64
	ProjectID      string
	ProjectPath    string // from the owner's scope
	Title          string
	Description    string
	Status         Status
	DueAt          *time.Time
	DueIsAllDay    bool
	StartsAt       *time.Time
	StartsIsAllDay bool
	RepeatRule     string // canonical text, "" for none
	Timezone       string
	UpdatedAt      time.Time
	Version        int
	Tags           []string
	Reminders      []Reminder
}

// FeedConditions are the validators a polling client sent.
type FeedConditions struct {
	IfNoneMatch     string
	IfModifiedSince *time.Time
}

// Feed is the answer to one fetch: the validators, and unless the client's
// copy is current, the tasks to show.
type Feed struct {
	Calendar     Calendar
	ETag         string // quoted, as the header carries it
	LastModified time.Time
	NotModified  bool
	Tasks        []FeedTask
	Zone         Zone // the owner's zone: all-day dates of tasks without a zone of their own
	From, Until  time.Time
	Now          time.Time
}

// decoyHash is compared against when no feed has the prefix asked for, so
// a wrong prefix costs what a wrong secret does.
var decoyHash = secretHash("tend_decoy")

// pollResolution is how stale last_polled_at may get before a fetch
// refreshes it.
const pollResolution = time.Minute

// CalendarFeed answers GET /v1/calendars/{prefix}/{secret}.ics: what the
// feed's owner may see now, within the feed's narrowing. Every failure
// (unknown prefix, wrong secret, revoked, reset, expired, owner or a
// responsible person deactivated, workspace gone) answers the same
// not_found, after the same hash and constant-time compare. When cond
// matches the feed's validators the tasks are not read. Like
// Authenticate, the bookkeeping (last_polled_at, at most once a minute, and
// the ETag when the feed changed) is a short write after the read.
func (s *Service) CalendarFeed(ctx context.Context, prefix, secret string, cond FeedConditions) (Feed, error) {
	sum := secretHash(secret)
	var out Feed
	err := s.store.View(ctx, func(tx Tx) error {
		chk, err := tx.CalendarCheck(ctx, prefix)
		stored := chk.Calendar.Hash
		if err != nil {
			if CodeOf(err) != CodeNotFound {
				return err
			}
			stored = decoyHash
		}
		if err != nil || subtle.ConstantTimeCompare(stored, sum) != 1 {
			return NotFound("calendar")
		}
		owner, err := ownerAccess(ctx, tx, chk.Owner)
		if err != nil {
			return err
		}
		w := chk.strand(owner)
		if !chk.Calendar.Usable(tx.Now()) {
			return NotFound("calendar")
		}
		return s.feed(ctx, tx, chk, owner, w, cond, &out)
	})
	if err != nil {
		return Feed{}, err
	}
	c := out.Calendar
	if s.standby() || c.LastPolledAt != nil && out.Now.Sub(*c.LastPolledAt) < pollResolution && c.ETag == out.ETag {
		return out, nil
	}
	err = s.store.Update(ctx, func(tx Tx) error {
		return tx.TouchCalendar(ctx, c.ID, tx.Now(), out.ETag)
	})
	return out, err
}

// ownerAccess is what a feed's owner may reach, as the feed reads it: the
// account's own access, whichever credential created the feed.
func ownerAccess(ctx context.Context, tx Tx, owner User) (*access, error) {
	return accessOf(ctx, tx, Actor{User: owner, Interface: "calendar"})
}

// strand sets the feed's Stranded from its owner's access (see
// Calendar.Stranded) and answers the workspace the feed reads in. The
// feed, the listing and reset all decide through it, so that a feed listed
// as usable answers and one that answers nothing is listed as unusable.
func (chk *CalendarCheck) strand(owner *access) wsAccess {
	w, member := owner.workspaces[chk.Calendar.WorkspaceID]
	chk.Calendar.Stranded = !chk.ChainActive || !member || w.Workspace.DeletedAt != nil
	return w
}

func (s *Service) feed(ctx context.Context, tx Tx, chk CalendarCheck, acc *access, w wsAccess, cond FeedConditions, out *Feed) error {
	c, now := chk.Calendar, tx.Now()
	sc, err := scopeOf(ctx, tx, acc, w)
	if err != nil {
		return err
	}
	zone, err := readerZone(ctx, tx, chk.Owner, &w.Workspace)
	if err != nil {
		return err
	}
	q := s.calendarQuery(sc, c, now)
	st, err := tx.CalendarStamp(ctx, q)
	if err != nil {
		return err
	}
	*out = Feed{Calendar: c, ETag: s.feedETag(sc, c, zone, q, st), Zone: zone, From: q.From, Until: q.Until, Now: now}
	out.LastModified = now
	if c.ChangedAt != nil && c.ETag == out.ETag {
		out.LastModified = *c.ChangedAt
	}
	if out.NotModified = notModified(cond, c, out.ETag); out.NotModified {
		return nil
	}
	if out.Tasks, err = tx.CalendarTasks(ctx, q); err != nil {
		return err
	}
	for i := range out.Tasks {
		if n := sc.byID[out.Tasks[i].ProjectID]; n != nil {
			out.Tasks[i].ProjectPath = n.Path
		}
	}
	return nil
}

// calendarQuery narrows the owner's scope to the feed: its project's
// subtree (nothing, once the owner may no longer see that project), its
// item types, its audience and the window of dates.
func (s *Service) calendarQuery(sc *scope, c Calendar, now time.Time) CalendarQuery {
	l := s.limits
	// The window moves a whole UTC day at a time, so that between events
	// the feed changes only at midnight (the ETag names the day).
	day := now.Truncate(24 * time.Hour)
	q := CalendarQuery{WorkspaceID: c.WorkspaceID, Readable: sc.readJSON, AllReadable: sc.readsAll, TypeIDs: c.ItemTypeIDs, Now: now,
		From: day.AddDate(0, 0, -l.CalendarPastDays), Until: day.AddDate(0, 0, l.CalendarFutureDays),
		DoneSince: day.AddDate(0, 0, -l.CalendarDoneDays), Limit: l.CalendarMaxEvents}
	if c.Audience == CalendarAudienceMe {
		q.UserID = c.UserID
	}
	if c.ProjectID != "" {
		q.ProjectIDs = []string{}
		if n := sc.byID[c.ProjectID]; n.visible() {
			q.ProjectIDs = readableUnder(n)
		}
	}
	return q
}

// feedETag names everything a feed's text follows from: the feed itself
// (its secret's revision too, so a reset never answers 304 to the old
// copy), the owner's readable projects with their paths, the owner's zone,
// the day the window is counted from, the stamp and the binary that writes
// it. It moves on any event of the workspace, which may send a feed again
// that did not change; it never keeps a feed that did.
func (s *Service) feedETag(sc *scope, c Calendar, zone Zone, q CalendarQuery, st CalendarStamp) string {
	h := sha256.New()
	for _, v := range []string{c.ID, strconv.Itoa(c.SecretRev), c.Title, sc.readJSON, zone.Name, s.opts.PublicURL, s.opts.Version,
		q.From.Format(time.DateOnly), strconv.FormatInt(st.LastEvent, 10), strconv.FormatInt(st.Claims, 10), st.NextExpiry} {
		h.Write([]byte(v))
		h.Write([]byte{0})
	}
	for _, n := range sc.ordered {
		if n.canReadItems() {
			h.Write([]byte(n.Path))
			h.Write([]byte{0})
		}
	}
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}

// notModified applies RFC 9110's order: If-None-Match when sent, else
// If-Modified-Since, which holds only while the feed is the one last served.
func notModified(cond FeedConditions, c Calendar, etag string) bool {
	if cond.IfNoneMatch != "" {
		for _, t := range strings.Split(cond.IfNoneMatch, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == etag || t == "*" {
				return true
			}
		}
		return false
	}
	return cond.IfModifiedSince != nil && c.ChangedAt != nil && c.ETag == etag &&
		!c.ChangedAt.Truncate(time.Second).After(*cond.IfModifiedSince)
}
