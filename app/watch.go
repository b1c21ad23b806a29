package app

import (
	"context"
	"sync"
	"sync/atomic"
)

// watch wakes whoever waits for the next successful write. A waiter takes
// the current channel; the write that commits closes it and puts a fresh
// one in its place, so one write wakes every waiter once.
type watch struct {
	mu sync.Mutex
	ch chan struct{}
	// reads are the feed reads waiters share since the last write, by
	// what they read and as whom (feed_wait.go); every write starts afresh.
	reads map[string]*sharedRead
	// open counts the waits on the change feed each credential holds
	// (feed_wait.go), so that one client cannot hold them all.
	open map[string]int
	n    int
	idle atomic.Int64 // waits parked until the next write
}

func newWatch() *watch { return &watch{ch: make(chan struct{}), open: map[string]int{}} }

// enter counts a wait for key, refusing one past most.
func (w *watch) enter(key string, most int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.open[key] >= most {
		return false
	}
	w.open[key]++
	w.n++
	return true
}

// leave ends a wait enter counted.
func (w *watch) leave(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.open[key]--; w.open[key] == 0 {
		delete(w.open, key)
	}
	w.n--
}

func (w *watch) waiting() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

func (w *watch) wake() {
	w.mu.Lock()
	close(w.ch)
	w.ch = make(chan struct{})
	w.reads = nil
	w.mu.Unlock()
}

// again is what a woken waiter reads from: the read under key begun since
// the last write, or a new one it is to make itself (lead), and the
// channel the next write closes, both taken together so that a write
// between them cannot go unnoticed.
func (w *watch) again(key string) (r *sharedRead, lead bool, next <-chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if r = w.reads[key]; r != nil {
		return r, false, w.ch
	}
	if w.reads == nil {
		w.reads = map[string]*sharedRead{}
	}
	r = &sharedRead{done: make(chan struct{})}
	w.reads[key] = r
	return r, true, w.ch
}

func (w *watch) next() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ch
}

// watchedStore is the store with every committed write reported to a watch.
type watchedStore struct {
	Store
	w *watch
}

func (s watchedStore) Update(ctx context.Context, fn func(Tx) error) error {
	err := s.Store.Update(ctx, fn)
	if err == nil {
		s.w.wake()
	}
	return err
}

// Written is closed by the next write that commits, whatever it changed.
// A page that shows live work takes it, reads the caller's newest event
// (NewestChange) and, if nothing is new, waits on it before reading again:
// a long poll that costs nothing while nothing is written.
func (s *Service) Written() <-chan struct{} { return s.watch.next() }

// NewestChange is the seq of the newest event of the workspace that the
// caller may see in its change feed, 0 when there is none.
func (s *Service) NewestChange(ctx context.Context, a Actor, workspace string) (int64, error) {
	p, err := s.Changes(ctx, a, FeedQuery{Workspace: workspace, Limit: 1})
	if err != nil || len(p.Items) == 0 {
		return 0, err
	}
	return p.Items[len(p.Items)-1].Seq, nil
}
