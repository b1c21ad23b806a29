package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tend/web/webtest"
)

// following is a command that follows the change feed, run in the
// background: the test writes while it waits.
type following struct {
	m        *cliMode
	out, err webtest.LogBuffer
	done     chan int // its exit status
	// paused is closed at the command's first pause (env.wait): on the
	// file, a poll that found nothing; on a server, the pause after a
	// dropped connection. The pauses end when resume is closed.
	paused, resume chan struct{}
	once           sync.Once
}

// follow starts the command line args as the administrator.
func (m *cliMode) follow(t *testing.T, args ...string) *following {
	t.Helper()
	// A wait an earlier command gave up on ends once the server sees its
	// connection close: start from none, so that idle sees this one's.
	for m.e.Svc.Waiting() > 0 {
		runtime.Gosched()
	}
	f := &following{m: m, done: make(chan int, 1), paused: make(chan struct{}), resume: make(chan struct{})}
	env := m.env("")
	if m.client != nil {
		env.http = m.client
	}
	env.wait = func(ctx context.Context, _ time.Duration) error {
		f.once.Do(func() { close(f.paused) })
		select {
		case <-f.resume:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if m.local {
		args = append([]string{"--db", m.e.DB.Path()}, args...)
	}
	root := NewRoot(&f.out, &f.err, env, nil)
	root.SetArgs(args)
	go func() {
		code := 0
		if err := root.ExecuteContext(t.Context()); err != nil {
			fmt.Fprintf(&f.err, "error: %v\n", err)
			code = ExitCode(err)
		}
		f.done <- code
	}()
	return f
}

// idle returns once the command waits for the next event: on a server,
// when the server holds its long poll; on the file, at its first pause
// between polls. It fails the test if the command ended instead.
func (f *following) idle(t *testing.T) {
	t.Helper()
	for {
		select {
		case code := <-f.done:
			t.Fatalf("the command ended (exit %d) before it waited: %q %q", code, f.out.String(), f.err.String())
		case <-f.paused:
			if f.m.local {
				return
			}
		default:
			if !f.m.local && f.m.e.Svc.Waiting() > 0 {
				return
			}
			runtime.Gosched()
		}
	}
}

// exit is the command's exit status, once it has ended; the pauses end
// first, as after the test's writes.
func (f *following) exit() int {
	close(f.resume)
	return <-f.done
}

// inModes runs test as parallel subtests in the two ways to reach tend,
// file and server, each on its own fresh instance with a project home and,
// under it, attic.
func inModes(t *testing.T, test func(t *testing.T, m *cliMode)) {
	for name, m := range map[string]*cliMode{"file": withProjects(newCLIMode(t)), "server": serverMode(t)} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, m)
		})
	}
}

// serverMode is tend reaching a fresh server, with the projects inModes
// makes.
func serverMode(t *testing.T) *cliMode {
	e := webtest.New(t)
	return withProjects(&cliMode{e: e, dir: t.TempDir(), tokens: map[string]string{"": e.Admin}, vars: map[string]string{}})
}

// withProjects gives m's instance a project home and, under it, attic.
func withProjects(m *cliMode) *cliMode {
	m.e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", m.e.Admin, map[string]any{"key": "home", "title": "Home"})
	m.e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", m.e.Admin, map[string]any{"key": "attic", "title": "Attic", "parent": "home"})
	return m
}

// TestCLIWatch is tend watch on the file and on a server: from a seq with
// --count, as JSON lines in the feed's shape, filtered by action and
// project, and from the end of the feed while the test writes.
func TestCLIWatch(t *testing.T) {
	t.Parallel()
	inModes(t, func(t *testing.T, m *cliMode) {
		e := m.e
		inbox := e.TaskRef(e.Admin, map[string]any{"title": "Buy milk"})
		attic := e.TaskRef(e.Admin, map[string]any{"title": "Sort the boxes", "project": "attic"})
		out, errOut, code := m.run(t, "", "", "watch", "--since", "1", "--count", "2")
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		first := e.OK(http.StatusOK, http.MethodGet, "/v1/changes?since=1&limit=2", e.Admin, nil)["items"].([]any)
		seq := func(i int) string { return fmt.Sprint(first[i].(map[string]any)["seq"]) + "  " }
		if code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], seq(0)) || !strings.HasPrefix(lines[1], seq(1)) {
			t.Fatalf("watch --since 1 --count 2: exit %d, %q %q", code, out, errOut)
		}

		out, _, code = m.run(t, "", "", "watch", "--since", "1", "--count", "1", "--json")
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
			t.Fatalf("watch --json: exit %d, %q (%v)", code, out, err)
		}
		want := e.OK(http.StatusOK, http.MethodGet, "/v1/changes?since=1&limit=1", e.Admin, nil)["items"].([]any)[0]
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("watch --json printed\n%v\nthe feed's event is\n%v", got, want)
		}

		out, _, code = m.run(t, "", "", "watch", "--since", "1", "--count", "1", "--action", "task.*", "--project", "home")
		if code != 0 || !strings.HasSuffix(out, "  task.created  #"+strconv.Itoa(attic)+" Sort the boxes\n") {
			t.Fatalf("watch --action task.* --project home: exit %d, %q", code, out)
		}

		f := m.follow(t, "watch", "--count", "1", "--action", "task.completed")
		f.idle(t)
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Not this one"})
		e.OK(http.StatusOK, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/complete", inbox), e.Admin, nil)
		if code := f.exit(); code != 0 || !strings.HasSuffix(f.out.String(), "  task.completed  #"+strconv.Itoa(inbox)+" Buy milk\n") ||
			strings.Count(f.out.String(), "\n") != 1 {
			t.Fatalf("watch from the end: exit %d, %q %q", code, f.out.String(), f.err.String())
		}

		for _, c := range []struct {
			args []string
			code int
			err  string
		}{
			{line("watch", "--action", "task.finished"), 1, "error: validation: --action: no event action is \"task.finished\""},
			{line("watch", "--project", "nope"), 1, "error: validation: --project: no such project: nope"},
			{line("watch", "--count", "-1"), 2, "error: --count is a number of events"},
			{line("watch", "extra"), 2, "error: unknown command"},
		} {
			if _, errOut, code := m.run(t, "", "", c.args...); code != c.code || !strings.HasPrefix(errOut, c.err) {
				t.Errorf("tend %s: exit %d, %q; want %d, %q", strings.Join(c.args, " "), code, errOut, c.code, c.err)
			}
		}
	})
}

// TestCLIWatchResumes: when the server drops the connection, tend watch
// says so, pauses and reads on from the seq after the last one it printed:
// what committed meanwhile is printed once, nothing is skipped.
func TestCLIWatchResumes(t *testing.T) {
	t.Parallel()
	m := serverMode(t)
	// A connection is used once: Go's transport sends a GET again by
	// itself when a reused connection drops, which would hide the drop.
	m.client = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	e := m.e
	f := m.follow(t, "watch", "--count", "2", "--action", "task.created")
	f.idle(t)
	e.TaskRef(e.Admin, map[string]any{"title": "Before the drop"})
	for !strings.Contains(f.out.String(), "Before the drop") || e.Svc.Waiting() == 0 {
		select {
		case code := <-f.done:
			t.Fatalf("watch ended (exit %d): %q %q", code, f.out.String(), f.err.String())
		default:
			runtime.Gosched()
		}
	}
	e.Srv.CloseClientConnections()
	// The test's own client may hold a connection just dropped, and Go does
	// not send a POST again on a fresh one: it dials anew.
	e.Srv.Client().CloseIdleConnections()
	<-f.paused
	e.TaskRef(e.Admin, map[string]any{"title": "During the drop"})
	if code := f.exit(); code != 0 {
		t.Fatalf("exit %d: %q", code, f.err.String())
	}
	lines := strings.Split(strings.TrimSuffix(f.out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "Before the drop") || !strings.HasSuffix(lines[1], "During the drop") {
		t.Fatalf("printed %q", f.out.String())
	}
	if !strings.HasPrefix(f.err.String(), "tend: lost "+e.Srv.URL) || !strings.Contains(f.err.String(), "reading on from seq") {
		t.Fatalf("said %q about the drop", f.err.String())
	}
}

// TestCLIWait is tend wait for each state, on the file and on a server: at
// once when the task is there already, else when the test's write brings
// it there; exit 1 on --timeout.
func TestCLIWait(t *testing.T) {
	t.Parallel()
	inModes(t, func(t *testing.T, m *cliMode) {
		e := m.e
		blocked := e.TaskRef(e.Admin, map[string]any{"title": "Paint the attic", "project": "attic"})
		blocker := e.TaskRef(e.Admin, map[string]any{"title": "Buy the paint"})
		e.OK(http.StatusCreated, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/links", blocker), e.Admin,
			map[string]any{"link_type": "blocks", "target": blocked})
		ref, other := strconv.Itoa(blocked), strconv.Itoa(blocker)

		for _, until := range []string{"ready", "unclaimed"} {
			if out, errOut, code := m.run(t, "", "", "wait", other, "--until", until); code != 0 || out+errOut != "" {
				t.Fatalf("wait %s --until %s, there already: exit %d, %q %q", other, until, code, out, errOut)
			}
		}
		_, errOut, code := m.run(t, "", "", "wait", ref, "--until", "ready", "--timeout", "20ms")
		if want := "error: #" + ref + " is not ready after 20ms (--timeout)\n"; code != 1 || errOut != want {
			t.Fatalf("wait --timeout: exit %d, %q; want 1, %q", code, errOut, want)
		}

		// ready: the blocker finishing readies it.
		f := m.follow(t, "wait", "#"+ref, "--until", "ready")
		f.idle(t)
		e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+other+"/complete", e.Admin, nil)
		if code := f.exit(); code != 0 {
			t.Fatalf("wait --until ready: exit %d, %q", code, f.err.String())
		}

		// unclaimed: the claim released.
		e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+ref+"/claim", e.Admin, nil)
		f = m.follow(t, "wait", ref, "--until", "unclaimed")
		f.idle(t)
		e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+ref+"/release", e.Admin, nil)
		if code := f.exit(); code != 0 {
			t.Fatalf("wait --until unclaimed: exit %d, %q", code, f.err.String())
		}

		// done: other tasks' events do not end it; its completion does.
		f = m.follow(t, "wait", ref, "--until", "done")
		f.idle(t)
		e.TaskRef(e.Admin, map[string]any{"title": "Something else"})
		e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+ref+"/complete", e.Admin, nil)
		if code := f.exit(); code != 0 {
			t.Fatalf("wait --until done: exit %d, %q", code, f.err.String())
		}

		for _, c := range []struct {
			args []string
			code int
			err  string
		}{
			{line("wait", ref, "--until", "soon"), 2, `error: --until is done, ready or unclaimed, not "soon"`},
			{line("wait", ref), 2, `error: --until is done, ready or unclaimed, not ""`},
			{line("wait", "99", "--until", "done"), 3, "error: not_found: "},
			{line("wait", "--until", "done"), 2, "error: accepts 1 arg(s)"},
		} {
			if _, errOut, code := m.run(t, "", "", c.args...); code != c.code || !strings.HasPrefix(errOut, c.err) {
				t.Errorf("tend %s: exit %d, %q; want %d, %q", strings.Join(c.args, " "), code, errOut, c.code, c.err)
			}
		}
	})
}
