package app_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
	"tend/web/passkeys"
)

// seeded is every fixture's starting point, made once per test binary: an
// instance bootstrapped on the fixed clock, with its administrator, the
// default workspace and the administrator's first credential, whose secret
// adminSecret keeps.
var (
	seeded = storetest.NewTemplate(func(ctx context.Context, db *store.DB) error {
		first, err := app.New(db, app.Options{Version: "test"}).Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
		if err == nil {
			adminSecret = first.Token.Secret
		}
		return err
	})
	adminSecret string
)

// fixture is one test's instance: a copy of the seeded database, the
// Service over it, its clock and the administrator acting through its
// credential. Everything a test adds goes through Service calls.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	svc   *app.Service
	clock *storetest.Clock
	admin app.Actor
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWith(t, app.Options{Version: "test"})
}

// newFixtureWith is newFixture with the Service's options, as
// storetest.Options completes them.
func newFixtureWith(t *testing.T, opts app.Options) *fixture {
	t.Helper()
	db, clock := seeded.Open(t)
	if opts.Passkeys == nil {
		opts.Passkeys = passkeys.Ceremonies{}
	}
	f := &fixture{t: t, ctx: context.Background(), svc: app.New(db, storetest.Options(opts)), clock: clock}
	// The worker indexes and finishes bulk work after the requests that
	// queue it; stopped before the database closes (cleanups run last
	// registered first), it never writes to a closed file.
	t.Cleanup(f.svc.StopWork)
	f.admin = f.login(adminSecret)
	return f
}

// on is f answering to a subtest's t, so that its helpers fail the subtest.
func (f *fixture) on(t *testing.T) *fixture {
	c := *f
	c.t = t
	return &c
}

// must returns v, failing the test it is given on err:
// got := must(f.svc.TaskGet(...))(t).
func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// errOf is a call's error with its value dropped, for the calls of the
// refusal tables: return errOf(f.svc.TaskGet(...)).
func errOf[T any](_ T, err error) error { return err }

// wantCode fails t unless err carries the code want ("" for no error).
func wantCode(t testing.TB, err error, want app.Code) {
	t.Helper()
	if got := app.CodeOf(err); got != want {
		t.Fatalf("code %q (%v), want %q", got, err, want)
	}
}

// wantRefusal fails t unless err carries code ("" for no error) and, for
// an error, names the field loc ("body.title") unless loc is "". It
// reports whether there was an error, so that a table test checks results
// only where the call succeeded.
func wantRefusal(t testing.TB, err error, code app.Code, loc string) bool {
	t.Helper()
	wantCode(t, err, code)
	if err != nil && loc != "" {
		wantField(t, err, loc)
	}
	return err != nil
}

// refused is one row of a table of calls a Service method refuses: the
// caller, its input, and the code and field ("" for none) the refusal names.
type refused[In any] struct {
	name string
	a    app.Actor
	in   In
	code app.Code
	loc  string
}

// wantRefused runs each row as a subtest, making the call with the row's
// caller and input, and checks the refusal it answers.
func wantRefused[In any](t *testing.T, rows []refused[In], call func(app.Actor, In) error) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			t.Helper()
			wantRefusal(t, call(r.a, r.in), r.code, r.loc)
		})
	}
}

// wantField fails t unless err names the field loc ("body.title").
func wantField(t testing.TB, err error, loc string) {
	t.Helper()
	for _, fe := range app.AsError(err).Fields {
		got := ""
		for i, part := range fe.Loc {
			if i > 0 {
				got += "."
			}
			got += part
		}
		if got == loc {
			return
		}
	}
	t.Fatalf("%v names no field %s", err, loc)
}

// login authenticates a secret as the Service's callers do.
func (f *fixture) login(secret string) app.Actor {
	f.t.Helper()
	return must(f.svc.Authenticate(f.ctx, secret, "test"))(f.t)
}

// issue issues a credential with the administrator's authority and
// returns its secret.
func (f *fixture) issue(in app.TokenCreate) string {
	f.t.Helper()
	return must(f.svc.CreateToken(f.ctx, f.admin, in))(f.t).Secret
}

// person creates a person, joins them to the default workspace with role
// ("" for no workspace) and returns them acting through a credential of
// their own.
func (f *fixture) person(username, role string) app.Actor {
	f.t.Helper()
	must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: username}))(f.t)
	if role != "" {
		must(f.svc.AddMember(f.ctx, f.admin, "default", app.Join{Username: username, Role: role}))(f.t)
	}
	return f.login(f.issue(app.TokenCreate{Username: username}))
}

// agent creates a service account answering to boss, a member of the
// default workspace, and returns it acting through a credential.
func (f *fixture) agent(username, boss string) app.Actor {
	f.t.Helper()
	must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: username, IsServiceAccount: true, AnswersTo: boss}))(f.t)
	must(f.svc.AddMember(f.ctx, f.admin, "default", app.Join{Username: username, Role: app.RoleMember}))(f.t)
	return f.login(f.issue(app.TokenCreate{Username: username}))
}

// project creates a project in the default workspace.
func (f *fixture) project(a app.Actor, in app.ProjectCreate) app.ProjectView {
	f.t.Helper()
	if in.Title == "" {
		in.Title = in.Key
	}
	return must(f.svc.CreateProject(f.ctx, a, "", in))(f.t)
}

// projects creates projects in the default workspace as the administrator,
// in order, so a parent can come before its subprojects.
func (f *fixture) projects(in ...app.ProjectCreate) {
	f.t.Helper()
	for _, p := range in {
		f.project(f.admin, p)
	}
}

// task creates a task in the default workspace.
func (f *fixture) task(a app.Actor, in app.TaskCreate) app.Task {
	f.t.Helper()
	return must(f.svc.CreateTask(f.ctx, a, "", in))(f.t)
}

// doc creates a document in the default workspace.
func (f *fixture) doc(a app.Actor, in app.DocumentCreate) app.Document {
	f.t.Helper()
	return must(f.svc.CreateDocument(f.ctx, a, "", in))(f.t)
}

// secretTask creates the private project "secret", which only the
// administrator sees, and files a task titled "hidden" in it.
func (f *fixture) secretTask() app.Task {
	f.t.Helper()
	f.project(f.admin, app.ProjectCreate{Key: "secret", Visibility: "private"})
	return f.task(f.admin, app.TaskCreate{Title: "hidden", Project: "secret"})
}

// ref is a task's or document's ref as Service calls take it.
func ref(n int64) string { return strconv.FormatInt(n, 10) }

// refs lists the refs of tasks, in order.
func refs(ts []app.Task) []int64 {
	out := []int64{}
	for _, t := range ts {
		out = append(out, t.Ref)
	}
	return out
}

// day is midnight UTC of a date written YYYY-MM-DD.
func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func ptr[T any](v T) *T { return &v }

// secretOf creates an account and returns the secret of a credential the
// administrator issues for it.
func (f *fixture) secretOf(in app.UserCreate) string {
	f.t.Helper()
	must(f.svc.CreateUser(f.ctx, f.admin, in))(f.t)
	return f.issue(app.TokenCreate{Username: in.Username})
}
