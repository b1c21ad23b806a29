package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"tend/app"
	"tend/cli"
	"tend/store/storetest"
)

// TestServeFollowFlags: a standby does not replicate, and the standby's
// flags need --follow.
func TestServeFollowFlags(t *testing.T) {
	var u cli.UsageError
	for _, args := range [][]string{
		{"--follow", "file:///srv/a", "--replica", "file:///srv/b"},
		{"--primary-url", "https://tend.example.ts.net"},
		{"--max-lag", "5s"},
		{"--follow-interval", "100ms"},
	} {
		_, _, err := run(t, append([]string{"--db", tempDB(t), "serve", "--addr", "127.0.0.1:0"}, args...)...)
		if !errors.As(err, &u) || cli.ExitCode(err) != cli.ExitUsage {
			t.Errorf("tend serve %s: %v; want a usage error", strings.Join(args, " "), err)
		}
	}
}

// TestPromoteRefusedKeepsServing: a promotion the store refuses (here a
// database that follows nothing; in earnest, a copy failing its
// integrity check) answers promote_failed, and starts none of what a
// primary runs.
func TestPromoteRefusedKeepsServing(t *testing.T) {
	db := storetest.Open(t)
	p := &primary{log: slog.New(slog.NewTextHandler(io.Discard, nil)), db: db, svc: app.New(db, app.Options{}), ctx: context.Background()}
	err := p.promote(context.Background(), "")
	if app.CodeOf(err) != app.CodePromoteFailed {
		t.Fatalf("promote refused by the store: %v, want promote_failed", err)
	}
	if p.started || len(p.stops) != 0 {
		t.Errorf("a refused promotion started the primary's work")
	}
}

// TestPromoteCommandRefusals: tend promote needs a credential, and
// reports the server's refusal with its code and exit status.
func TestPromoteCommandRefusals(t *testing.T) {
	t.Setenv("TEND_TOKEN", "")
	var u cli.UsageError
	if _, _, err := run(t, "promote", "--server", "http://127.0.0.1:1"); !errors.As(err, &u) {
		t.Errorf("tend promote without TEND_TOKEN: %v; want a usage error", err)
	}
}
