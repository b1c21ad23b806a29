package app

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// DigestUser is what deciding whether a person's daily digest is due takes.
type DigestUser struct {
	ID, Timezone string
	Minute       int    // the digest time, minutes after midnight in their zone
	Day          string // the day the digest was last queued, YYYY-MM-DD
}

// digestScan bounds the people with a digest one round looks at.
const digestScan = 500

type digestTx interface {
	// DigestUsers lists up to limit active people whose digest is on,
	// those digested longest ago first.
	DigestUsers(ctx context.Context, limit int) ([]DigestUser, error)
	// SetDigestDay records the day a person's digest was last queued.
	SetDigestDay(ctx context.Context, userID, day string) error
}

// digestDue is when u's next digest falls due and the day it is for, read
// in their zone (or the instance's, theirs unset).
func digestDue(u DigestUser, instanceZone string, now time.Time) (time.Time, string) {
	name := u.Timezone
	if name == "" {
		name = instanceZone
	}
	loc := loadZone(name).Loc
	local := now.In(loc)
	day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	if day.Format(time.DateOnly) == u.Day {
		day = day.AddDate(0, 0, 1)
	}
	return day.Add(time.Duration(u.Minute) * time.Minute), day.Format(time.DateOnly)
}

// startDigest counts today as digested when u's new digest time has
// already passed today in their zone, so that setting it at noon for 07:30
// sends nothing until tomorrow.
func startDigest(ctx context.Context, tx Tx, u *User) error {
	u.DigestDay = ""
	if u.DigestMinute == nil {
		return nil
	}
	zone, err := readerZone(ctx, tx, *u, nil)
	if err != nil {
		return err
	}
	local := tx.Now().In(zone.Loc)
	if local.Hour()*60+local.Minute() >= *u.DigestMinute {
		u.DigestDay = local.Format(time.DateOnly)
	}
	return nil
}

// withDigest is next, or the soonest a digest of the people scanned falls
// due when that is sooner; zero stays zero when no digest is on either.
func withDigest(ctx context.Context, tx Tx, next time.Time) (time.Time, error) {
	us, err := tx.DigestUsers(ctx, digestScan)
	if err != nil || len(us) == 0 {
		return next, err
	}
	inst, err := tx.Instance(ctx)
	if err != nil {
		return next, err
	}
	for _, u := range us {
		if at, _ := digestDue(u, inst.Timezone, tx.Now()); next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next, nil
}

// queueDigests queues the digest of each person whose digest time has come
// today and who had none yet today: one per channel, telling what their
// agenda holds overdue, due today and in progress. A person with nothing
// there, or with no channel, gets none; either way the day is done.
func (s *Service) queueDigests(ctx context.Context, tx Tx) error {
	now := tx.Now()
	us, err := tx.DigestUsers(ctx, digestScan)
	if err != nil || len(us) == 0 {
		return err
	}
	inst, err := tx.Instance(ctx)
	if err != nil {
		return err
	}
	for _, du := range us {
		at, day := digestDue(du, inst.Timezone, now)
		if at.After(now) {
			continue
		}
		if err := queueDigest(ctx, tx, du.ID, now); err != nil {
			return err
		}
		if err := tx.SetDigestDay(ctx, du.ID, day); err != nil {
			return err
		}
	}
	return nil
}

func queueDigest(ctx context.Context, tx Tx, uid string, now time.Time) error {
	chans, err := tx.Channels(ctx, uid)
	if err != nil || len(chans) == 0 {
		return err
	}
	u, err := tx.UserByID(ctx, uid)
	if err != nil {
		return err
	}
	ag, err := digestAgenda(ctx, tx, u)
	if err != nil {
		return err
	}
	title, body, ok := digestText(ag)
	if !ok {
		return nil
	}
	for _, c := range chans {
		n := Notification{ID: newNotificationID(), UserID: uid, ChannelID: c.ID, Kind: "digest", Title: title, Body: body,
			Path: "/", State: "pending", DueAt: now, CreatedAt: now}
		if err := tx.InsertNotification(ctx, &n); err != nil {
			return err
		}
	}
	return nil
}

// digestAgenda is u's agenda for today over every workspace u is in, read
// as the Today page reads it, through what u may see.
func digestAgenda(ctx context.Context, tx Tx, u User) (Agenda, error) {
	var out Agenda
	acc, err := accessOf(ctx, tx, Actor{User: u, Interface: "notify"})
	if isRefusal(err) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	for _, w := range acc.live() {
		sc, err := scopeOf(ctx, tx, acc, w)
		if err != nil {
			return out, err
		}
		day, err := agendaDayOf(ctx, tx, sc, AgendaQuery{})
		if err != nil {
			return out, err
		}
		open, err := tx.OpenTasks(ctx, w.Workspace.ID)
		if err != nil {
			return out, err
		}
		var ag Agenda
		if err := fillAgenda(ctx, tx, sc, day.place(open), &ag); err != nil {
			return out, err
		}
		out.Overdue = append(out.Overdue, ag.Overdue...)
		out.Today = append(out.Today, ag.Today...)
		out.InProgress = append(out.InProgress, ag.InProgress...)
	}
	return out, nil
}

// digestText is a digest's title and body: the counts, then the first
// titles, overdue first. ok is false when there is nothing to tell.
func digestText(ag Agenda) (title, body string, ok bool) {
	var parts, titles []string
	for _, l := range []struct {
		ts   []Task
		what string
	}{{ag.Overdue, "overdue"}, {ag.Today, "due"}, {ag.InProgress, "in progress"}} {
		if len(l.ts) > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", len(l.ts), l.what))
		}
		for _, t := range l.ts {
			titles = append(titles, t.Title)
		}
	}
	if len(titles) == 0 {
		return "", "", false
	}
	return "Today: " + strings.Join(parts, ", "), firstTitles(titles), true
}
