package store

import (
	"sync"
	"sync/atomic"
)

// revCache keeps, per key, a value read together with a revision column that
// triggers move in the same transaction as any change to what the value was
// read from (workspaces.scope_rev, workspaces.vocab_rev, instance.auth_rev).
// A reader reads the revision in its own snapshot and takes the cached value
// only when the revisions are equal, so a stale copy is never served.
//
// A value enters the cache only once the transaction that read it has
// committed (see keep). A write transaction may read its own uncommitted
// change at revision r; should it roll back, the next committed change would
// reuse r for different rows. After a commit, r either is the committed
// revision or was overtaken within the transaction, and revisions never go
// back to a value they have passed.
type revCache[T any] struct {
	m      sync.Map // key → revEntry[T]
	latest atomic.Int64
}

type revEntry[T any] struct {
	rev int64
	val T
}

// get returns the value cached for key at exactly rev.
func (c *revCache[T]) get(key string, rev int64) (T, bool) {
	if e, ok := c.m.Load(key); ok && e.(revEntry[T]).rev == rev {
		return e.(revEntry[T]).val, true
	}
	var zero T
	return zero, false
}

// keep caches val for key at rev once t commits, unless a newer revision
// is cached by then: an old snapshot finishing late must not evict it.
func (c *revCache[T]) keep(t *Tx, key string, rev int64, val T) {
	t.OnCommit(func() { c.put(key, rev, val) })
}

// put caches val, read in a committed snapshot at rev, for key, unless a
// newer revision is cached already.
func (c *revCache[T]) put(key string, rev int64, val T) {
	if e, ok := c.m.Load(key); ok && e.(revEntry[T]).rev > rev {
		return
	}
	c.m.Store(key, revEntry[T]{rev: rev, val: val})
}

// revise replaces the value cached for key with f of it, at the revision it
// was read at, for a change that does not move the revision. The value is
// replaced, never changed in place: other requests may hold it. An entry a
// newer read stored meanwhile may be overwritten with the older revision,
// which costs that key one read, never a stale answer.
func (c *revCache[T]) revise(key string, f func(T) T) {
	if e, ok := c.m.Load(key); ok {
		old := e.(revEntry[T])
		c.m.Store(key, revEntry[T]{rev: old.rev, val: f(old.val)})
	}
}

// putShared is put for a cache whose every key follows one revision
// (instance.auth_rev): once a newer revision is seen, entries read at an
// older one can never be served again, so they are dropped. The cache then
// holds only the keys used since the last change, however many come and go.
func (c *revCache[T]) putShared(key string, rev int64, val T) {
	c.put(key, rev, val)
	if rev <= c.latest.Load() {
		return
	}
	c.latest.Store(rev)
	c.m.Range(func(k, v any) bool {
		// Values need not be comparable, so no CompareAndDelete: an entry
		// a newer read stored meanwhile may go too, which costs that key
		// one read, never a stale answer.
		if v.(revEntry[T]).rev < rev {
			c.m.Delete(k)
		}
		return true
	})
}
