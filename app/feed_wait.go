package app

import (
	"context"
	"time"
)

// Waiting on the change feed (issue 35 §1; docs/feed.md, "Waiting for the
// next event").
//
// A program that wants to act when something changes asks for the feed
// from the seq it has reached with a wait: the answer comes at once when
// an event it may see is there, else as soon as one commits, else when the
// wait runs out, as the normal (then empty) page. Each read is its own
// read transaction, over before the wait starts, so a waiter holds neither
// a reader nor the writer while it waits, and costs nothing but its
// goroutine until a write commits. A committed write wakes every waiter
// (watch.go); each reads again and waits on if nothing it may see came.

// waitKey names what a waiter counts against: the credential presented,
// else the browser session, else the account.
func (a Actor) waitKey() string {
	switch {
	case a.Token != nil:
		return "token " + a.Token.ID
	case a.SessionID != "":
		return "session " + a.SessionID
	}
	return "user " + a.User.ID
}

// waitChanges is Changes with q.Wait.
func (s *Service) waitChanges(ctx context.Context, a Actor, q FeedQuery) (FeedPage, error) {
	if q.Since == nil {
		return FeedPage{}, Invalidf("query.wait", "wait holds the feed open from since: send since (the seq to read on from) with it")
	}
	if n := *q.WaitSeconds; n < 1 || n > s.limits.MaxWaitSeconds {
		return FeedPage{}, Invalidf("query.wait", "wait is whole seconds from 1 to %d", s.limits.MaxWaitSeconds)
	}
	key := a.waitKey()
	if !s.watch.enter(key, s.limits.WaitersPerCredential) {
		return FeedPage{}, Errorf(CodeTooManyWaiters,
			"this credential already holds %d waits on the change feed open, the most it may; end one or try again when one has answered",
			s.limits.WaitersPerCredential)
	}
	defer s.watch.leave(key)
	expired, stop := s.opts.timer(time.Duration(*q.WaitSeconds) * time.Second)
	defer stop()
	for {
		written := s.watch.next() // taken before reading, so no commit is missed between the two
		page, err := s.changes(ctx, a, q)
		if err != nil || len(page.Items) > 0 {
			return page, err
		}
		select {
		case <-written:
		case <-expired:
			return page, nil
		case <-ctx.Done():
			return page, nil
		}
	}
}

// Waiting is how many waits on the change feed are open.
func (s *Service) Waiting() int { return s.watch.waiting() }

// timer starts the clock on a wait: Options.Timer when a test set one,
// else a real timer.
func (o Options) timer(d time.Duration) (<-chan time.Time, func()) {
	if o.Timer != nil {
		return o.Timer(d)
	}
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}
