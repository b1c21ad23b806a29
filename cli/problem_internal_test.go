package cli

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"tend/app"
	"tend/web/wire"
)

// TestProblems: a refusal reads the same whether the server sent it or the
// Service returned it, says how to get past it, and gives its exit status.
func TestProblems(t *testing.T) {
	held := &app.Error{Code: app.CodeClaimHeld, Detail: "#3 is claimed by bob until 2026-03-02T09:30:00Z; try again after that",
		Extra: map[string]any{"holder": "bob", "expires_at": "2026-03-02T09:30:00Z"}}
	invalid := app.Invalidf("query.status", `no task status "nope"`)
	for _, c := range []struct {
		err  error
		line string
		exit int
	}{
		{held, "claim_held: #3 is claimed by bob until 2026-03-02T09:30:00Z; try again after that (take other work: tend claim next)", ExitConflict},
		{invalid, `validation: query.status: no task status "nope"`, ExitError},
		{app.NotFound("task"), "not_found: no such task (tend search WORDS finds the refs you may see)", ExitNotFound},
		{app.Errorf(app.CodeNothingReady, "nothing is ready"), "nothing_ready: nothing is ready (tend ls --to-act-on shows what waits; tend add files more)", ExitNotFound},
	} {
		local := problemOf(c.err).(*Problem)
		rec := wire.NewProblem(c.err)
		body, _ := rec.MarshalJSON()
		remote := DecodeProblem(rec.Status, body, "http://tend")
		for name, p := range map[string]*Problem{"local": local, "remote": remote} {
			if p.Error() != c.line || ExitCode(p) != c.exit || app.CodeOf(p) != app.AsError(c.err).Code {
				t.Errorf("%s %v: %q exit %d, want %q exit %d", name, c.err, p.Error(), ExitCode(p), c.line, c.exit)
			}
		}
		if c.err == held && remote.Extra["holder"] != "bob" {
			t.Errorf("the holder did not come through: %v", remote.Extra)
		}
	}
	own := problemOf(app.NotFound("account")).(*Problem)
	own.Fix = "--user names an account"
	if own.Error() != "not_found: no such account (--user names an account)" {
		t.Errorf("a fix the command knows better: %q", own.Error())
	}
	proxy := DecodeProblem(http.StatusBadGateway, []byte("<html>Bad gateway</html>"), "http://tend")
	if !strings.HasPrefix(proxy.Error(), "http://tend answered 502 Bad Gateway, which is no tend answer") || ExitCode(proxy) != ExitError {
		t.Errorf("a proxy's page: %q, exit %d", proxy.Error(), ExitCode(proxy))
	}
	internal := problemOf(errors.New("disk I/O error")).(*Problem)
	if internal.Error() != "internal: disk I/O error" || ExitCode(internal) != ExitError {
		t.Errorf("an internal error on the file: %q", internal.Error())
	}
	if ExitCode(errors.New("plain")) != ExitError || ExitCode(nil) != ExitError {
		t.Error("a plain error exits 1")
	}
}
