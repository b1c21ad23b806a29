package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/cli"
	"tend/store"
	"tend/web/webtest"
)

// TestMain lets a test run the real main() in a child process (see runMain),
// so exit statuses and the stderr format are checked as a user sees them.
func TestMain(m *testing.M) {
	if os.Getenv("TEND_TEST_RUN_MAIN") == "1" {
		os.Args = append([]string{"tend"}, os.Args[1:]...)
		main()
		os.Exit(0)
	}
	// A race-enabled binary sleeps a second at exit (GORACE's
	// atexit_sleep_ms) so that late reports get out; the commands these
	// tests start as child processes would spend most of their life in it.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	os.Exit(m.Run())
}

// secretRE matches a whole credential secret: the public prefix, "_", 40 more.
var secretRE = regexp.MustCompile(`tend_[a-z2-7]{10}_[a-z2-7]{40}`)

// run executes one command line in-process and returns what it wrote.
func run(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb webtest.LogBuffer
	cmd := newRootCmd(&out, &errb)
	cmd.SetArgs(args)
	err = cmd.ExecuteContext(t.Context())
	return out.String(), errb.String(), err
}

// mustRun is run for a command that must succeed.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, err := run(t, args...)
	if err != nil {
		t.Fatalf("tend %s: %v\nstderr: %s", strings.Join(args, " "), err, errOut)
	}
	return out
}

func tempDB(t *testing.T) string { return filepath.Join(t.TempDir(), "tend.db") }

// freshDB is a migrated database that no command has used yet: the
// commands other than serve refuse a file that does not exist.
func freshDB(t *testing.T) string {
	t.Helper()
	path := tempDB(t)
	newDatabase(t, path)
	return path
}

// server is one `tend serve` running in the background.
type server struct {
	out, errb *webtest.LogBuffer
	addr      string
	cancel    context.CancelFunc
	done      chan error
}

// servingRE finds the address serve listens on in its log, text or JSON.
var servingRE = regexp.MustCompile(`(?:msg=serving addr=|"msg":"serving","addr":")([^\s"]+)`)

// startServe runs tend serve on dbPath with a free port, and extra flags.
func startServe(t *testing.T, dbPath string, extra ...string) *server {
	t.Helper()
	s := &server{out: &webtest.LogBuffer{}, errb: &webtest.LogBuffer{}, done: make(chan error, 1)}
	cmd := newRootCmd(s.out, s.errb)
	cmd.SetArgs(append([]string{"--db", dbPath, "serve", "--addr", "127.0.0.1:0", "--timezone", "UTC"}, extra...))
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() { s.done <- cmd.ExecuteContext(ctx) }()
	t.Cleanup(func() { _ = s.stop(t) })
	deadline := time.After(30 * time.Second)
	for {
		if m := servingRE.FindStringSubmatch(s.errb.String()); m != nil {
			s.addr = m[1]
			return s
		}
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("serve ended before listening: %v\nstderr: %s", err, s.errb.String())
		case <-deadline:
			t.Fatalf("serve did not start\nstdout: %s\nstderr: %s", s.out.String(), s.errb.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// stop cancels serve's context and returns what serve returned.
func (s *server) stop(t *testing.T) error {
	t.Helper()
	s.cancel()
	select {
	case err := <-s.done:
		s.done <- err // later calls see the same result
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not return after its context was cancelled")
		return nil
	}
}

// getMe calls GET /v1/me on a running server with secret as the bearer token.
func getMe(t *testing.T, addr, secret string) (int, map[string]any) {
	t.Helper()
	status, b := get(t, "http://"+addr+"/v1/me", secret)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatalf("GET /v1/me: body is not JSON: %v", err)
	}
	return status, body
}

var curlRE = regexp.MustCompile(`curl -H "Authorization: Bearer (\S+)" http://(\S+)/v1/me`)

func TestServeFirstStartPrintsTokenOnce(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	s := startServe(t, dbPath)
	out := s.out.String()
	m := curlRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("first start printed no curl line:\n%s", out)
	}
	secret, addr := m[1], m[2]
	if !secretRE.MatchString(secret) || secretRE.FindString(secret) != secret {
		t.Fatalf("printed secret %q does not have the credential's shape", secret)
	}
	if addr != s.addr {
		t.Errorf("curl line names %s, the server listens on %s", addr, s.addr)
	}
	got := secretRE.FindAllString(out, -1)
	if len(got) != 3 || got[0] != secret || got[1] != secret || got[2] == secret {
		t.Errorf("stdout holds secrets %q; want the administrator's token on its own line and in the curl line, then a sign-in link", got)
	}
	if link := "http://" + addr + "/signin?link=" + got[len(got)-1]; !strings.Contains(out, "\n    "+link+"\n") {
		t.Errorf("first start printed no sign-in link %s:\n%s", link, out)
	} else if strings.Contains(s.errb.String(), got[len(got)-1]) {
		t.Error("the sign-in link's secret went to the log")
	}
	if !strings.Contains(out, "\n    "+secret+"\n") {
		t.Errorf("the secret is not on a line of its own:\n%s", out)
	}
	if strings.Contains(s.errb.String(), secret) {
		t.Error("the secret went to the log")
	}

	status, me := getMe(t, addr, secret)
	if status != http.StatusOK {
		t.Fatalf("GET /v1/me with the printed token: %d %v", status, me)
	}
	if user, _ := me["user"].(map[string]any); user["username"] != "admin" || user["is_superuser"] != true {
		t.Errorf("GET /v1/me user = %v, want the administrator admin", me["user"])
	}
	if status, body := getMe(t, addr, ""); status != http.StatusUnauthorized || body["code"] != "unauthorized" {
		t.Errorf("GET /v1/me without a token: %d %v, want 401 unauthorized", status, body)
	}
	if err := s.stop(t); err != nil {
		t.Fatalf("serve returned %v after cancel, want nil", err)
	}

	// A second start on the same database prints no secret, and the first
	// one still works.
	s2 := startServe(t, dbPath)
	if got := s2.out.String(); strings.Contains(got, "tend_") {
		t.Errorf("second start printed a secret:\n%s", got)
	}
	if status, _ := getMe(t, s2.addr, secret); status != http.StatusOK {
		t.Errorf("GET /v1/me with the first start's token after a restart: %d", status)
	}
	if err := s2.stop(t); err != nil {
		t.Fatalf("second serve returned %v after cancel, want nil", err)
	}
}

func TestServeRefusesNewerDatabase(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	newerDatabase(t, dbPath)
	_, _, err := run(t, "--db", dbPath, "serve", "--addr", "127.0.0.1:0")
	if app.CodeOf(err) != app.CodeSchemaTooNew {
		t.Fatalf("serve on a newer database: %v, want schema_too_new", err)
	}
	if !strings.HasPrefix(err.Error(), "schema_too_new: ") {
		t.Errorf("error reads %q; main prints it after \"error: \", so it must start with the code", err)
	}
}

// newerDatabase leaves at path a database that a newer tend wrote.
func newerDatabase(t *testing.T, path string) {
	t.Helper()
	db, err := store.Open(t.Context(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path) // the driver the store registers
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
}

// lineWith returns the first line of s that contains sub, or "".
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// backupLineRE is what `tend backup` prints: name, size and schema.
var backupLineRE = regexp.MustCompile(`^(tend-\d{8}T\d{6}\.\d{3}Z-routine-(\S+)\.db)\t(\d+) bytes\tschema (\S+)\n$`)

// newDatabase creates a migrated database at path and returns its schema revision.
func newDatabase(t *testing.T, path string) string {
	t.Helper()
	db, err := store.Open(t.Context(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rev := db.SchemaRevision()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return rev
}

// backupNames returns the backup names `tend backup list` printed, in order.
func backupNames(t *testing.T, list string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(list, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "NAME") {
		t.Fatalf("backup list has no header:\n%s", list)
	}
	var out []string
	for _, l := range lines[1:] {
		out = append(out, strings.Fields(l)[0])
	}
	return out
}

func TestBackupCommand(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	rev := newDatabase(t, dbPath)

	out := mustRun(t, "--db", dbPath, "backup")
	m := backupLineRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("backup printed %q", out)
	}
	name := m[1]
	if m[2] != rev || m[4] != rev {
		t.Errorf("backup at schema %s/%s, want %s", m[2], m[4], rev)
	}
	fi, err := os.Stat(filepath.Join(filepath.Dir(dbPath), "backups", name))
	if err != nil {
		t.Fatalf("backup file: %v", err)
	}
	if m[3] != strconv.FormatInt(fi.Size(), 10) {
		t.Errorf("backup printed %s bytes, file has %d", m[3], fi.Size())
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("backup file mode %v, want 0600", fi.Mode().Perm())
	}
	if di, err := os.Stat(filepath.Join(filepath.Dir(dbPath), "backups")); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("backup directory: %v, %v; want mode 0700", di.Mode().Perm(), err)
	}

	list := mustRun(t, "--db", dbPath, "backup", "list")
	if got := backupNames(t, list); !slices.Equal(got, []string{name}) {
		t.Fatalf("backup list = %q, want [%s]", got, name)
	}
	if row := lineWith(list, name); !strings.Contains(row, "routine") || !strings.Contains(row, rev) {
		t.Errorf("backup list row = %q; want reason routine and schema %s", row, rev)
	}
	if strings.Contains(list, string(filepath.Separator)) {
		t.Errorf("backup list shows a path:\n%s", list)
	}

	var last string
	for range 2 {
		out := mustRun(t, "--db", dbPath, "backup", "--keep", "1")
		m := backupLineRE.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("backup --keep 1 printed %q", out)
		}
		last = m[1]
	}
	if got := backupNames(t, mustRun(t, "--db", dbPath, "backup", "list")); !slices.Equal(got, []string{last}) {
		t.Errorf("after backup --keep 1 twice, backup list = %q; want only the newest, %s", got, last)
	}
}

func TestBackupCommandDir(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	newDatabase(t, dbPath)
	dir := filepath.Join(t.TempDir(), "offsite")
	m := backupLineRE.FindStringSubmatch(mustRun(t, "--db", dbPath, "backup", "--dir", dir))
	if m == nil {
		t.Fatal("backup --dir printed no backup line")
	}
	if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
		t.Errorf("backup --dir: %v", err)
	}
	if got := backupNames(t, mustRun(t, "--db", dbPath, "backup", "list", "--dir", dir)); !slices.Equal(got, []string{m[1]}) {
		t.Errorf("backup list --dir = %q, want [%s]", got, m[1])
	}
	if got := backupNames(t, mustRun(t, "--db", dbPath, "backup", "list")); len(got) != 0 {
		t.Errorf("the default directory lists %q; the backup went to --dir", got)
	}
}

func TestBackupCommandDoesNotMigrate(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	newerDatabase(t, dbPath)
	m := backupLineRE.FindStringSubmatch(mustRun(t, "--db", dbPath, "backup"))
	if m == nil || m[4] != "0099" {
		t.Fatalf("backup of a newer database: %v; want one at schema 0099", m)
	}
}

func TestBackupCommandErrors(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	if _, _, err := run(t, "--db", dbPath, "backup"); err == nil {
		t.Error("backup of a missing database succeeded")
	}
	if _, err := os.Stat(dbPath); !os.IsNotExist(err) {
		t.Errorf("backup created the database it was asked to copy: %v", err)
	}
	newDatabase(t, dbPath)
	var u cli.UsageError
	if _, _, err := run(t, "--db", dbPath, "backup", "--keep", "-1"); !errors.As(err, &u) {
		t.Errorf("backup --keep -1: %v; want a usage error", err)
	}
	if _, _, err := run(t, "--db", dbPath, "backup", "now"); !errors.As(err, &u) {
		t.Errorf("backup with an argument: %v; want a usage error", err)
	}
}

// runMain runs the real main() in a child process and returns its exit
// status and stderr.
func runMain(t *testing.T, args ...string) (int, string) {
	t.Helper()
	return runMainEnv(t, nil, args...)
}

// runMainEnv is runMain with env added to the process's environment.
func runMainEnv(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), env...), "TEND_TEST_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

func TestMainExitStatusAndErrorFormat(t *testing.T) {
	t.Parallel()
	newer := tempDB(t)
	newerDatabase(t, newer)
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stderr string // how the one error line begins
	}{
		{"app error", []string{"--db", freshDB(t), "token", "revoke", "tend_nosuchtoken"}, 1, "error: not_found: no such credential"},
		{"no database", []string{"--db", tempDB(t), "token", "list"}, 1, "error: not_found: no database at "},
		{"newer schema", []string{"--db", newer, "token", "list"}, 1, "error: schema_too_new: database schema version 99 is newer"},
		{"bad flag value", []string{"--db", tempDB(t), "token", "issue", "--expires", "soon"}, 2, "error: --expires \"soon\""},
		{"unknown flag", []string{"--db", tempDB(t), "backup", "--nope"}, 2, "error: unknown flag: --nope"},
		{"missing argument", []string{"--db", tempDB(t), "token", "revoke"}, 2, "error: "},
		{"extra argument", []string{"--db", tempDB(t), "backup", "now"}, 2, "error: unknown command \"now\" for \"tend backup\""},
		{"unknown synchronous", []string{"--db", tempDB(t), "serve", "--addr", "127.0.0.1:0", "--synchronous", "off"}, 1, "error: synchronous must be \"normal\" or \"full\", not \"off\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, stderr := runMain(t, tc.args...)
			if status != tc.status {
				t.Errorf("exit status %d, want %d; stderr: %s", status, tc.status, stderr)
			}
			if !strings.HasPrefix(stderr, tc.stderr) {
				t.Errorf("stderr = %q; want it to begin %q", stderr, tc.stderr)
			}
			if n := strings.Count(stderr, "\n"); n != 1 {
				t.Errorf("stderr has %d lines, want one: %q", n, stderr)
			}
		})
	}
}

// TestCommandsRefuseMissingDatabase: only serve creates a database. A
// mistyped --db used to create an empty 446 KB database, which then
// answered "unauthorized"; now every other command refuses, naming the
// path, and creates nothing, not even the directory.
func TestCommandsRefuseMissingDatabase(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"token", "issue"},
		{"token", "issue", "--user", "claude", "--agent-of", "admin"},
		{"token", "list"},
		{"token", "revoke", "tend_aaaaaaaaaa"},
		{"signin"},
		{"signin", "--user", "alice"},
		{"mcp", "--token", "tend_aaaaaaaaaa_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		{"backup"},
		{"backup", "--keep", "3"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "typo")
			dbPath := filepath.Join(dir, "tend.db")
			out, _, err := run(t, append([]string{"--db", dbPath}, args...)...)
			if app.CodeOf(err) != app.CodeNotFound || !strings.HasPrefix(err.Error(), "not_found: no database at "+dbPath+": check --db") {
				t.Fatalf("err = %v; want not_found: no database at %s: check --db …", err, dbPath)
			}
			if out != "" {
				t.Errorf("stdout = %q; want nothing", out)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the command created %s: %v", dir, err)
			}
		})
	}
	t.Run("backup list", func(t *testing.T) {
		// Listing what is left after the database was lost is how a
		// restore begins: it answers, and creates nothing either.
		dir := filepath.Join(t.TempDir(), "lost")
		if got := backupNames(t, mustRun(t, "--db", filepath.Join(dir, "tend.db"), "backup", "list")); len(got) != 0 {
			t.Errorf("backup list = %q", got)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("backup list created %s: %v", dir, err)
		}
	})
	t.Run("serve creates it", func(t *testing.T) {
		dbPath := filepath.Join(t.TempDir(), "new", "tend.db")
		s := startServe(t, dbPath)
		if err := s.stop(t); err != nil {
			t.Fatal(err)
		}
		mustRun(t, "--db", dbPath, "token", "list")
	})
}
