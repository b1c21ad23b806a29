package storetest

import "runtime"

// Waiting runs call in the background and returns once held reports that
// the call is held open (a change feed's wait), or once it has answered
// already, which the caller's checks then report; its answer arrives on
// the channel returned. It waits on the Service's state, never on a clock.
func Waiting[T any](call func() T, held func() bool) <-chan T {
	got, done := make(chan T, 1), make(chan struct{})
	go func() {
		defer close(done)
		got <- call()
	}()
	for !held() {
		select {
		case <-done:
			return got
		default:
			runtime.Gosched()
		}
	}
	return got
}
