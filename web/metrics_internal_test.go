package web

import (
	"errors"
	"testing"
	"time"
)

// TestCachedReadsInTheBackground: the first get reads; later ones answer
// the value held at once, and once it is older than sourceTTL start a
// single read in the background whose result (or failure) the next get
// reports.
func TestCachedReadsInTheBackground(t *testing.T) {
	t.Parallel()
	reads, release := make(chan struct{}, 4), make(chan struct{})
	next, fail := 1, error(nil)
	c := &cached[int]{load: func() (int, error) {
		reads <- struct{}{}
		if next > 1 {
			<-release
		}
		return next, fail
	}}
	if v, err := c.get(); v != 1 || err != nil || len(reads) != 1 {
		t.Fatalf("first get = %d, %v after %d reads", v, err, len(reads))
	}
	<-reads
	if v, _ := c.get(); v != 1 || len(reads) != 0 {
		t.Fatalf("a fresh value was read again (%d reads)", len(reads))
	}

	next = 2
	c.mu.Lock()
	c.at = c.at.Add(-sourceTTL)
	c.mu.Unlock()
	if v, err := c.get(); v != 1 || err != nil {
		t.Fatalf("a stale get = %d, %v; want the held 1 at once", v, err)
	}
	<-reads // the background read started
	if v, _ := c.get(); v != 1 {
		t.Fatalf("get during the background read = %d", v)
	}
	release <- struct{}{}
	waitLoaded(t, c)
	if v, err := c.get(); v != 2 || err != nil || len(reads) != 0 {
		t.Fatalf("after the background read: %d, %v (%d more reads)", v, err, len(reads))
	}

	next, fail = 3, errors.New("disk gone")
	c.mu.Lock()
	c.at = c.at.Add(-sourceTTL)
	c.mu.Unlock()
	c.get()
	<-reads
	release <- struct{}{}
	waitLoaded(t, c)
	if v, err := c.get(); v != 2 || err == nil {
		t.Fatalf("after a failed read: %d, %v; want the last good value and the failure", v, err)
	}
}

// waitLoaded waits for c's background read to finish.
func waitLoaded(t *testing.T, c *cached[int]) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		c.mu.Lock()
		loading := c.loading
		c.mu.Unlock()
		if !loading {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the background read never finished")
		}
		time.Sleep(time.Millisecond)
	}
}
