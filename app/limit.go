package app

import (
	"strconv"
	"sync"
	"time"
)

// attempts bounds how often something may happen per key within a sliding
// window: at most max events in any window-long span, whatever their
// timing. It counts in memory, with the transaction's clock, so a test
// advances it as it advances the store's. A restart forgets the counts;
// an attacker cannot cause one, and what is bounded (guesses at a code
// that lives ten minutes) is bounded again from zero at worst once a
// restart.
type attempts struct {
	window time.Duration
	max    int
	mu     sync.Mutex
	seen   map[string][]time.Time // each key's events within the window, oldest first
}

func newAttempts(max int, window time.Duration) *attempts {
	return &attempts{window: window, max: max, seen: map[string][]time.Time{}}
}

// attemptKeysSwept is how many keys the map holds before a sweep drops
// those with nothing left in the window: keys are client addresses and
// sessions, so an unauthenticated caller can make many.
const attemptKeysSwept = 4096

// full reports whether key has had max events in the window before now.
func (l *attempts) full(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recent(key, now)) >= l.max
}

// add records an event of key at now.
func (l *attempts) add(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.record(key, now)
}

// record is add with l.mu held.
func (l *attempts) record(key string, now time.Time) {
	if len(l.seen) >= attemptKeysSwept {
		for k := range l.seen {
			if len(l.recent(k, now)) == 0 {
				delete(l.seen, k)
			}
		}
	}
	ts := append(l.recent(key, now), now)
	if len(ts) > l.max {
		ts = ts[len(ts)-l.max:]
	}
	l.seen[key] = ts
}

// recent drops key's events older than the window and returns the rest;
// l.mu is held.
func (l *attempts) recent(key string, now time.Time) []time.Time {
	ts := l.seen[key]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= l.window {
		i++
	}
	if i > 0 {
		ts = ts[i:]
		l.seen[key] = ts
	}
	return ts
}

// take records an event of key at now and answers 0, or, when key has had
// max events in the window, records nothing and answers how long until
// its oldest leaves the window. Checking and counting under one lock keeps
// concurrent attempts from all passing the check before any is counted.
func (l *attempts) take(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ts := l.recent(key, now); len(ts) >= l.max {
		return ts[0].Add(l.window).Sub(now)
	}
	l.record(key, now)
	return 0
}

// RateLimit is a bound on how often one key (a client address, an
// account) may do one thing: at most Max times in any Window. Each
// surface declares its own next to the rule it guards.
type RateLimit struct {
	Name   string // names the counter: two limits of one name share it
	Max    int
	Window time.Duration
	What   string // what is refused, as the refusal says it: "sign-ins from this address"
}

// rateLimits holds a counter per RateLimit name, made on first use.
type rateLimits struct {
	mu sync.Mutex
	by map[string]*attempts
}

// take counts one event of key under lim at now, or refuses it with 429
// too_many_attempts and the Retry-After that ends the wait when key has
// had Max in the window. A refused attempt is not counted: waiting as told
// is enough.
func (r *rateLimits) take(lim RateLimit, key string, now time.Time) error {
	r.mu.Lock()
	if r.by == nil {
		r.by = map[string]*attempts{}
	}
	l := r.by[lim.Name]
	if l == nil {
		l = newAttempts(lim.Max, lim.Window)
		r.by[lim.Name] = l
	}
	r.mu.Unlock()
	if wait := l.take(key, now); wait > 0 {
		return &Error{Code: CodeTooManyAttempts, RetryAfter: wait,
			Detail: "too many " + lim.What + "; try again in " + waitText(wait)}
	}
	return nil
}

// waitText is a wait as a person reads it, rounded up: "3 minutes".
func waitText(d time.Duration) string {
	if d <= time.Minute {
		s := int((d + time.Second - 1) / time.Second)
		return strconv.Itoa(s) + " second" + plural(s)
	}
	m := int((d + time.Minute - 1) / time.Minute)
	return strconv.Itoa(m) + " minute" + plural(m)
}
