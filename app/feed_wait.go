package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
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
//
// A write can wake a thousand waiters at once, and most of them ask the
// same question: the same credential, the same filters, the same since.
// Those share one read (and, through Rendered, one rendering of it): the
// first to wake reads for all of them, the rest take its page. A shared
// read begins after the write that woke each of them, so each sees what a
// read of its own would have seen; and the key holds everything about the
// caller a read depends on, so callers whose sight may differ never share.

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
	written := s.watch.next() // taken before reading, so no commit is missed between the two
	page, err := s.readApart(ctx, a, q)
	var shared string
	for err == nil && len(page.Items) == 0 {
		s.watch.idle.Add(1)
		woken := false
		select {
		case <-written:
			woken = true
		case <-expired:
		case <-ctx.Done():
		}
		s.watch.idle.Add(-1)
		if !woken {
			return page, nil
		}
		if shared == "" {
			shared = a.readKey() + "\n" + q.readKey()
		}
		r, lead, next := s.watch.again(shared)
		if lead {
			// Not the leader's own context: its client may leave, and the
			// others still want the page.
			r.page, r.err = s.changes(context.WithoutCancel(ctx), a, q)
			r.page.shared = r
			close(r.done)
		}
		select {
		case <-r.done:
		case <-ctx.Done():
			return page, nil
		}
		page, err, written = r.page, r.err, next
	}
	return page, err
}

// readApart is s.changes on a goroutine of its own, whose stack, grown
// deep by SQLite, is let go when the read ends: the waiting request's own
// stays as small as its handler needs, for as long as it waits.
func (s *Service) readApart(ctx context.Context, a Actor, q FeedQuery) (FeedPage, error) {
	var page FeedPage
	var err error
	var panicked any
	done := make(chan struct{})
	go func() {
		defer close(done)
		// A panic goes on where it would have been raised, so that the
		// server recovers it as it does any handler's.
		defer func() { panicked = recover() }()
		page, err = s.changes(ctx, a, q)
	}()
	<-done
	if panicked != nil {
		panic(panicked)
	}
	return page, err
}

// sharedRead is one read of the change feed that the waiters a write woke
// share, with what transports rendered of it.
type sharedRead struct {
	done chan struct{} // closed once page and err are set
	page FeedPage
	err  error

	mu       sync.Mutex
	rendered map[string]rendering
}

type rendering struct {
	b   []byte
	err error
}

// Rendered is render's answer for this page rendered as how: computed once
// for every waiter that shares the page, so that a thousand answers to one
// question cost one rendering; for any other page, render's answer. how
// names everything the rendering depends on besides the page.
func (p FeedPage) Rendered(how string, render func() ([]byte, error)) ([]byte, error) {
	r := p.shared
	if r == nil {
		return render()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	got, ok := r.rendered[how]
	if !ok {
		got.b, got.err = render()
		if r.rendered == nil {
			r.rendered = map[string]rendering{}
		}
		r.rendered[how] = got
	}
	return got.b, got.err
}

// readKey is everything about the actor that what it may read depends on:
// two actors with the same key see the same events. Only when a credential
// was last used is left out, which tells nothing about its sight.
func (a Actor) readKey() string {
	var t Token
	if a.Token != nil {
		t = *a.Token
		t.LastUsedAt = nil
	}
	// Users and tokens are plain values: marshalling them cannot fail.
	b, _ := json.Marshal(struct {
		User                 User
		Token                Token
		Interface, SessionID string
		System               bool
	}{a.User, t, a.Interface, a.SessionID, a.system})
	return string(b)
}

// readKey is everything about the query a read of it depends on. A field
// added to FeedQuery is in it unseen; were it a pointer, its address would
// keep queries apart that could have shared, never the other way round.
func (q FeedQuery) readKey() string {
	key := ""
	for _, p := range feedParams {
		key += q.Loc.at(p) + "|"
	}
	if q.Since != nil {
		key += strconv.FormatInt(*q.Since, 10)
	}
	q.Loc, q.WaitSeconds, q.Since = nil, nil, nil
	return fmt.Sprintf("%s|%#v", key, q)
}

// feedParams are the parameters a refusal of a feed read can name.
var feedParams = []string{"since", "actor", "created_at", "limit", "cursor", "action", "project", "workspace"}

// Waiting is how many waits on the change feed are open.
func (s *Service) Waiting() int { return s.watch.waiting() }

// IdleWaits is how many waits on the change feed have read, found nothing
// and wait for the next write.
func (s *Service) IdleWaits() int { return int(s.watch.idle.Load()) }

// timer starts the clock on a wait: Options.Timer when a test set one,
// else a real timer.
func (o Options) timer(d time.Duration) (<-chan time.Time, func()) {
	if o.Timer != nil {
		return o.Timer(d)
	}
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}
