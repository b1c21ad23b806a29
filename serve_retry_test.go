package main

import (
	"errors"
	"testing"
	"time"

	"tend/cli"
)

// TestRetryScaleEnv: TEND_TEST_RETRY_SCALE, for tests, shrinks the webhook
// retry schedule by its factor; unset, the schedule is the real one; a
// value that is not a factor above 0 and at most 1 is a usage error of
// tend serve.
func TestRetryScaleEnv(t *testing.T) {
	t.Setenv("TEND_TEST_RETRY_SCALE", "")
	if f, err := testRetryScale(); f != nil || err != nil {
		t.Errorf("unset: a schedule of its own, %v", err)
	}
	t.Setenv("TEND_TEST_RETRY_SCALE", "0.001")
	if f, err := testRetryScale(); err != nil || f(5*time.Second) != 5*time.Millisecond {
		t.Errorf("0.001: %v", err)
	}
	for _, v := range []string{"0", "2", "fast"} {
		t.Setenv("TEND_TEST_RETRY_SCALE", v)
		if _, err := testRetryScale(); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
	var u cli.UsageError
	if _, _, err := run(t, "--db", tempDB(t), "serve", "--addr", "127.0.0.1:0"); !errors.As(err, &u) {
		t.Errorf("serve with TEND_TEST_RETRY_SCALE=fast: %v, want a usage error", err)
	}
}
