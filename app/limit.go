package app

import (
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
