package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// besideFixture is a database open twice, as a server and a command beside
// it (tend token, tend signin) open it: two DBs with connections, caches and
// -shm views of their own on one file.
type besideFixture struct {
	server, beside     *store.DB
	svc, besideSvc     *app.Service
	admin, besideAdmin app.Actor
	secret             string
}

func newBesideFixture(t *testing.T) besideFixture {
	t.Helper()
	ctx := t.Context()
	f := besideFixture{server: storetest.Open(t)}
	var first *app.FirstStart
	f.svc, f.admin, first = storetest.Admin(t, f.server, app.Options{}, "test") // signing in stamps last_used_at
	f.secret = first.Token.Secret
	var err error
	if f.beside, err = store.Open(ctx, f.server.Path(), store.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := f.beside.Close(); err != nil {
			t.Error(err)
		}
	})
	f.besideSvc = app.New(f.beside, app.Options{})
	if f.besideAdmin, err = f.besideSvc.Authenticate(ctx, f.secret, "test"); err != nil {
		t.Fatal(err)
	}
	return f
}

// authenticate checks secret on the server three times: the first check
// may query, and commit (a credential's first use stamps last_used_at), the
// second may query, the third, with nothing committed since the second,
// must not.
func (f besideFixture) authenticate(t *testing.T, secret string) error {
	t.Helper()
	ctx := t.Context()
	_, err := f.svc.Authenticate(ctx, secret, "test")
	_, _ = f.svc.Authenticate(ctx, secret, "test")
	before := f.server.QueryCount()
	_, again := f.svc.Authenticate(ctx, secret, "test")
	if app.CodeOf(again) != app.CodeOf(err) {
		t.Fatalf("the same check twice answered %v, then %v", err, again)
	}
	if err == nil {
		if n := f.server.QueryCount() - before; n != 0 {
			t.Errorf("a check with nothing committed since the last took %d statements, want none", n)
		}
	}
	return err
}

// TestCredentialFollowsTheFileBeside: what a second opener of the file
// commits (a token issued or revoked, an account deactivated) holds on the
// server's very next check, with the log checkpointed and started over or
// not, while a check with nothing committed since the last runs no
// statement.
func TestCredentialFollowsTheFileBeside(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newBesideFixture(t)
	if err := f.authenticate(t, f.secret); err != nil {
		t.Fatalf("the administrator's credential: %v", err)
	}

	issued := agentToken(t, f.besideSvc, f.besideAdmin, "robot")
	f.accepted(t, issued.Secret, "a credential issued beside the server")
	if _, err := f.besideSvc.RevokeToken(ctx, f.besideAdmin, issued.Prefix); err != nil {
		t.Fatal(err)
	}
	f.refused(t, issued.Secret, "a credential revoked beside the server")

	// After the log is truncated, and after it starts over, the header
	// still tells.
	other := agentToken(t, f.besideSvc, f.besideAdmin, "clerk")
	f.accepted(t, other.Secret, "a second credential issued beside the server")
	checkpoint(t, f.server.Path(), "TRUNCATE")
	f.accepted(t, other.Secret, "after a checkpoint")
	off := app.UserUpdate{Active: app.Patch[bool]{Set: true, Value: false}}
	if _, err := f.besideSvc.UpdateUser(ctx, f.besideAdmin, "clerk", off); err != nil {
		t.Fatal(err)
	}
	f.refused(t, other.Secret, "an account deactivated beside the server, after a checkpoint")
	on := app.UserUpdate{Active: app.Patch[bool]{Set: true, Value: true}}
	if _, err := f.besideSvc.UpdateUser(ctx, f.besideAdmin, "clerk", on); err != nil {
		t.Fatal(err)
	}
	checkpoint(t, f.server.Path(), "RESTART")
	f.accepted(t, other.Secret, "an account reactivated beside the server")
	if _, err := f.besideSvc.RevokeToken(ctx, f.besideAdmin, other.Prefix); err != nil { // the first commit in the restarted log
		t.Fatal(err)
	}
	f.refused(t, other.Secret, "a credential revoked beside the server in a restarted log")

	// The server's own writes count as much as anyone's.
	if _, err := f.svc.RevokeToken(ctx, f.admin, f.admin.Token.ID); err != nil {
		t.Fatal(err)
	}
	f.refused(t, f.secret, "a credential the server revoked")
}

// accepted fails t unless the server accepts secret, which what names.
func (f besideFixture) accepted(t *testing.T, secret, what string) {
	t.Helper()
	if err := f.authenticate(t, secret); err != nil {
		t.Fatalf("%s: %v; want accepted", what, err)
	}
}

// refused fails t unless the server refuses secret as unauthorized.
func (f besideFixture) refused(t *testing.T, secret, what string) {
	t.Helper()
	if err := f.authenticate(t, secret); app.CodeOf(err) != app.CodeUnauthorized {
		t.Fatalf("%s: %v; want unauthorized", what, err)
	}
}

// agentToken issues, as a through svc, a credential for a new agent
// username answering to the administrator.
func agentToken(t *testing.T, svc *app.Service, a app.Actor, username string) app.IssuedToken {
	t.Helper()
	issued, err := svc.CreateToken(t.Context(), a, app.TokenCreate{Username: username, AnswersTo: "admin", Scopes: []string{app.ScopeAll}})
	if err != nil {
		t.Fatal(err)
	}
	return issued
}

// checkpoint runs a checkpoint of mode to its end on a connection of its
// own. Each DB's background checkpointer may hold the checkpoint lock for a
// moment, and a checkpoint that finds it taken answers busy at once: it is
// tried again.
func checkpoint(t *testing.T, path, mode string) {
	t.Helper()
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	busy := 1
	for try := 0; busy != 0 && try < 100_000; try++ {
		var frames, copied int
		if err := raw.QueryRowContext(context.Background(), "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &frames, &copied); err != nil {
			t.Fatalf("wal_checkpoint(%s): %v", mode, err)
		}
	}
	if busy != 0 {
		t.Fatalf("wal_checkpoint(%s) stayed busy", mode)
	}
}

// TestOwnCommitLeavesTheCheckFree: after the server's own commit, the next
// token check runs no statement (the writer told it the auth_rev it left),
// and what that commit changed holds: a revocation is refused at once.
func TestOwnCommitLeavesTheCheckFree(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newBesideFixture(t)
	if err := f.authenticate(t, f.secret); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := f.svc.CreateProject(ctx, f.admin, "", app.ProjectCreate{Key: fmt.Sprintf("own%d", i), Title: "Own"}); err != nil {
			t.Fatal(err)
		}
		before := f.server.QueryCount()
		if _, err := f.svc.Authenticate(ctx, f.secret, "test"); err != nil {
			t.Fatal(err)
		}
		if n := f.server.QueryCount() - before; n != 0 {
			t.Errorf("the check after the server's own commit %d took %d statements, want none", i, n)
		}
	}
	issued := agentToken(t, f.svc, f.admin, "robot")
	f.accepted(t, issued.Secret, "a credential the server issued")
	if _, err := f.svc.RevokeToken(ctx, f.admin, issued.Prefix); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Authenticate(ctx, issued.Secret, "test"); app.CodeOf(err) != app.CodeUnauthorized {
		t.Fatalf("right after the server revoked it: %v; want unauthorized", err)
	}
}

// TestOwnCommitYieldsToAnotherCommit: a commit by another process that
// falls between the server's commit and its reading of the header (the
// test puts a revocation there) must not be taken for the server's: the
// log grew by more than the server wrote, so nothing is kept, and the
// next check queries and refuses.
func TestOwnCommitYieldsToAnotherCommit(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newBesideFixture(t)
	issued := agentToken(t, f.besideSvc, f.besideAdmin, "robot")
	f.accepted(t, issued.Secret, "a credential issued beside the server")
	revoke := true
	f.server.BetweenCommitAndHeader(func() {
		if revoke {
			revoke = false
			if _, err := f.besideSvc.RevokeToken(ctx, f.besideAdmin, issued.Prefix); err != nil {
				t.Error(err)
			}
		}
	})
	if _, err := f.svc.CreateProject(ctx, f.admin, "", app.ProjectCreate{Key: "own", Title: "Own"}); err != nil {
		t.Fatal(err)
	}
	if revoke {
		t.Fatal("the revocation never ran between the commit and the header")
	}
	if _, err := f.svc.Authenticate(ctx, issued.Secret, "test"); app.CodeOf(err) != app.CodeUnauthorized {
		t.Fatalf("a credential revoked beside the server just after the server's commit: %v; want unauthorized", err)
	}
}
