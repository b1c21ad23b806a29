package main

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/cli"
	"tend/store"
)

func TestTokenIssueListRevoke(t *testing.T) {
	t.Parallel()
	dbPath := freshDB(t)
	_, _, err := run(t, "--db", dbPath, "token", "issue", "--user", "claude", "--agent-of", "admin", "--scopes", "item:read")
	if app.CodeOf(err) != app.CodeTokenScopeIncomplete || !strings.Contains(err.Error(), `add "project:read"`) {
		t.Fatalf("--scopes item:read alone: %v; want token_scope_incomplete naming project:read", err)
	}
	out, errOut, err := run(t, "--db", dbPath, "token", "issue", "--user", "claude", "--agent-of", "admin", "--scopes", "item:read,project:read")
	if err != nil {
		t.Fatalf("token issue: %v\nstderr: %s", err, errOut)
	}
	if !regexp.MustCompile(`^` + secretRE.String() + `\n$`).MatchString(out) {
		t.Fatalf("token issue printed %q; want exactly one line holding the secret", out)
	}
	secret := strings.TrimSuffix(out, "\n")
	prefix := secret[:len("tend_")+10]

	// The secret is a working credential for a new service account that
	// answers to the administrator the first start created.
	db, err := store.Open(t.Context(), dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(db, app.Options{}).Authenticate(t.Context(), secret, "cli")
	if cerr := db.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatalf("the issued secret does not authenticate: %v", err)
	}
	if a.User.Username != "claude" || !a.User.IsServiceAccount || a.User.AnswersTo != "admin" {
		t.Errorf("credential is for %+v; want service account claude answering to admin", a.User)
	}
	if a.Token == nil || !slices.Equal(a.Token.Scopes, []string{"item:read", "project:read"}) || a.Token.Prefix != prefix {
		t.Errorf("credential = %+v; want prefix %s with scopes [item:read project:read]", a.Token, prefix)
	}

	list := mustRun(t, "--db", dbPath, "token", "list")
	if secretRE.MatchString(list) || strings.Contains(list, secret) {
		t.Fatalf("token list shows a secret:\n%s", list)
	}
	row := lineWith(list, prefix)
	if row == "" {
		t.Fatalf("token list does not show prefix %s:\n%s", prefix, list)
	}
	if f := strings.Fields(row); len(f) < 4 || f[1] != "claude" || !slices.Contains(f, "item:read,project:read") || f[len(f)-1] != "usable" {
		t.Errorf("token list row = %q; want claude, item:read,project:read, usable", row)
	}
	if !strings.HasPrefix(list, "PREFIX") {
		t.Errorf("token list has no header:\n%s", list)
	}

	out = mustRun(t, "--db", dbPath, "token", "revoke", prefix)
	if !strings.HasPrefix(out, "revoked "+prefix+" (claude, ") {
		t.Errorf("token revoke printed %q", out)
	}
	if secretRE.MatchString(out) {
		t.Errorf("token revoke printed a secret: %q", out)
	}
	list = mustRun(t, "--db", dbPath, "token", "list")
	if f := strings.Fields(lineWith(list, prefix)); len(f) == 0 || f[len(f)-1] != "revoked" {
		t.Errorf("after revoke, token list row = %q; want state revoked", lineWith(list, prefix))
	}

	_, _, err = run(t, "--db", dbPath, "token", "revoke", "tend_nosuchtoken")
	if app.CodeOf(err) != app.CodeNotFound || !strings.HasPrefix(err.Error(), "not_found: ") {
		t.Errorf("revoking an unknown prefix: %v; want not_found: …", err)
	}
}

func TestTokenIssueWithoutUserIsForAdministrator(t *testing.T) {
	t.Parallel()
	dbPath := freshDB(t)
	secret := strings.TrimSpace(mustRun(t, "--db", dbPath, "token", "issue", "--title", "laptop", "--expires", "30d"))
	list := mustRun(t, "--db", dbPath, "token", "list")
	row := lineWith(list, secret[:len("tend_")+10])
	f := strings.Fields(row)
	if len(f) < 3 || f[1] != "admin" || f[2] != "laptop" || f[len(f)-1] != "usable" {
		t.Fatalf("token list row = %q; want admin's usable credential titled laptop", row)
	}
	want := time.Now().Add(30 * 24 * time.Hour).UTC()
	exp, err := time.Parse(time.RFC3339, f[len(f)-2])
	if err != nil || exp.Sub(want).Abs() > time.Hour {
		t.Errorf("expiry shown as %q; want about %s", f[len(f)-2], want.Format(time.RFC3339))
	}
}

func TestTokenIssueUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"token", "issue", "--expires", "soon"},
		{"token", "issue", "--expires", "-5h"},
		{"token", "issue", "--expires", "0d"},
		{"token", "issue", "--no-such-flag"},
		{"token", "revoke"},
		{"token", "revoke", "a", "b"},
		{"token", "list", "extra"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dbPath := tempDB(t)
			out, _, err := run(t, append([]string{"--db", dbPath}, args...)...)
			var u cli.UsageError
			if !errors.As(err, &u) {
				t.Fatalf("err = %v (%T); want a usage error", err, err)
			}
			if out != "" {
				t.Errorf("stdout = %q; want nothing", out)
			}
			// A mistake in the command line is caught before the database is touched.
			if _, err := os.Stat(dbPath); !os.IsNotExist(err) {
				t.Errorf("the database was created: %v", err)
			}
		})
	}
}

func TestParseExpiry(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"30d":                  now.Add(30 * 24 * time.Hour),
		"12h":                  now.Add(12 * time.Hour),
		"90m":                  now.Add(90 * time.Minute),
		"2026-04-01T00:00:00Z": time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC),
	} {
		if got, err := parseExpiry(in, now); err != nil || !got.Equal(want) {
			t.Errorf("parseExpiry(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "soon", "0d", "-1d", "-1h", "0s", "30x", "2026-04-01"} {
		if got, err := parseExpiry(in, now); err == nil {
			t.Errorf("parseExpiry(%q) = %v; want an error", in, got)
		}
	}
}

// TestTokenIssueAgentOfKeepsWhomItAnswersTo: --agent-of makes a new account
// an agent; for an account that exists and answers to somebody else (or is
// a person) it is an error naming both, where it used to be ignored.
func TestTokenIssueAgentOfKeepsWhomItAnswersTo(t *testing.T) {
	t.Parallel()
	dbPath := freshDB(t)
	mustRun(t, "--db", dbPath, "token", "issue", "--user", "alice")
	mustRun(t, "--db", dbPath, "token", "issue", "--user", "claude", "--agent-of", "admin")
	before := mustRun(t, "--db", dbPath, "token", "list")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--user", "claude", "--agent-of", "alice"}, []string{"claude", "answers to admin, not alice"}},
		{[]string{"--user", "CLAUDE", "--agent-of", "alice"}, []string{"claude", "answers to admin, not alice"}},
		{[]string{"--user", "alice", "--agent-of", "admin"}, []string{"alice", "is a person", "admin"}},
		{[]string{"--agent-of", "admin"}, []string{"--user"}},
	} {
		out, _, err := run(t, append([]string{"--db", dbPath, "token", "issue"}, tc.args...)...)
		if app.CodeOf(err) != app.CodeValidation || out != "" {
			t.Errorf("token issue %v: %q, %v; want a validation error and no secret", tc.args, out, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("token issue %v: %q does not say %q", tc.args, err, w)
			}
		}
	}
	if after := mustRun(t, "--db", dbPath, "token", "list"); after != before {
		t.Errorf("a refused issue left a credential:\n%s", after)
	}
	// The same person again is no change: another credential for the agent.
	secret := strings.TrimSpace(mustRun(t, "--db", dbPath, "token", "issue", "--user", "claude", "--agent-of", "admin"))
	if !secretRE.MatchString(secret) {
		t.Fatalf("printed %q", secret)
	}
}
