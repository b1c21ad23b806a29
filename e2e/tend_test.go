// Package e2e tests the built tend binary as its users run it: browser
// flows, kill -9 and replication drills, the official MCP clients, the
// documents' and tend help's commands, the terminal beside a server.
package e2e

import (
	"bufio"
	"bytes"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	_ "modernc.org/sqlite" // the drills read the files a killed server left
)

// TestMain stands in for Claude Code's CLI in the documents' commands (see
// TestDocsCommands), runs the tests from the repository's root, whose
// documents, contrib/ and .ci/ they read by the paths the documents give,
// and removes the built binary after the tests.
func TestMain(m *testing.M) {
	if os.Getenv("TEND_TEST_RUN_CLAUDE") == "1" {
		os.Exit(fakeClaude(os.Args[1:]))
	}
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// A race-enabled binary sleeps a second at exit (GORACE's
	// atexit_sleep_ms) so that late reports get out; the claude stand-in,
	// this test binary, would spend most of its life in it.
	if _, set := os.LookupEnv("GORACE"); !set {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	code := m.Run()
	stopBrowser()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// builtTend is tend built as its users build it (CGO_ENABLED=0 go build),
// once per run of the tests, by the first test that needs it: the tests
// check what the binary does and prints, not races (the packages' own
// tests run under the race detector), and a race-instrumented tend ran
// each command several times slower.
func builtTend(t testing.TB) string {
	t.Helper()
	path, err := buildTend()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

var buildTend = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "tend-built-")
	if err != nil {
		return "", err
	}
	builtDir = dir
	path := filepath.Join(dir, "tend")
	cmd := exec.Command("go", "build", "-o", path, "tend")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return path, nil
})

// builtDir holds builtTend's binary; TestMain removes it after the tests.
var builtDir string

func tempDB(t testing.TB) string { return filepath.Join(t.TempDir(), "tend.db") }

// runTend runs the built binary on nothing but what args say (no server
// configured, a config directory of its own) and returns what it printed.
func runTend(t testing.TB, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(builtTend(t), args...)
	cmd.Env = append(os.Environ(), "TEND_URL=", "XDG_CONFIG_HOME="+t.TempDir())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// mustRun is runTend for a command that must succeed: its stdout.
func mustRun(t testing.TB, args ...string) string {
	t.Helper()
	out, errOut, err := runTend(t, args...)
	if err != nil {
		t.Fatalf("tend %q: %v\nstderr: %s", args, err, errOut)
	}
	return out
}

var (
	// secretRE matches a whole credential secret: the public prefix, "_", 40 more.
	secretRE = regexp.MustCompile(`tend_[a-z2-7]{10}_[a-z2-7]{40}`)
	// servingRE finds the address serve listens on in its log, text or JSON.
	servingRE = regexp.MustCompile(`(?:msg=serving addr=|"msg":"serving","addr":")([^\s"]+)`)
	// signinLinkRE is the sign-in link, the last thing a first start prints.
	signinLinkRE = regexp.MustCompile(`http://\S+/signin\?link=\S+`)
)

// child is a running `tend serve`, a process of its own.
type child struct {
	cmd         *exec.Cmd
	addr, url   string
	token, link string // printed on the first start only
	done        chan error
}

// startChild starts `tend serve` on dbPath and a free loopback port, with
// more flags if given, and waits until it listens (and, on a first start,
// until it printed the administrator's token and sign-in link).
func startChild(t testing.TB, dbPath string, first bool, flags ...string) *child {
	t.Helper()
	return startServe(t, nil, first, append([]string{"--db", dbPath, "serve", "--addr", "127.0.0.1:0"}, flags...)...)
}

// startServe is startChild with the whole command line, in the
// environment env (nil: the test's own).
func startServe(t testing.TB, env []string, first bool, args ...string) *child {
	t.Helper()
	cmd := exec.Command(builtTend(t), args...)
	cmd.Env = env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &child{cmd: cmd, done: make(chan error, 1)}
	addr, printed := make(chan string, 1), make(chan [2]string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() { // drains the pipe for as long as the child lives
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil && !sent {
				addr <- m[1]
				sent = true
			}
		}
		close(addr)
	}()
	go func() {
		var token string
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			switch l := sc.Text(); {
			case token == "" && secretRE.MatchString(l):
				token = secretRE.FindString(l)
			case signinLinkRE.MatchString(l):
				printed <- [2]string{token, signinLinkRE.FindString(l)}
			}
		}
		close(printed)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	a, ok := <-addr
	if first && ok {
		var p [2]string
		p, ok = <-printed
		s.token, s.link = p[0], p[1]
	}
	if !ok {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatal("tend serve ended before listening")
	}
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.done
	})
	s.addr, s.url = a, "http://"+a
	return s
}

// openChecked opens the file a server left (killed or stopped) or a
// restore made, as the next start would, and checks its integrity.
func openChecked(t *testing.T, dbPath string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check of %s = %q, %v", dbPath, check, err)
	}
	return db
}

// storedTitles is openChecked, then the titles of the file's tasks that
// match like.
func storedTitles(t *testing.T, dbPath, like string) map[string]bool {
	t.Helper()
	db := openChecked(t, dbPath)
	rows, err := db.Query("SELECT title FROM tasks WHERE title LIKE ?", like)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	stored := map[string]bool{}
	for rows.Next() {
		var title string
		if err := rows.Scan(&title); err != nil {
			t.Fatal(err)
		}
		stored[title] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return stored
}

// benchSeed is a copy of the 100,000-task database the web benchmarks
// seed and keep in TEND_BENCH_SEED (BENCHMARKS.md, "Projects and tasks"),
// a credential for user on it, and the binary to time: the one
// TEND_BENCH_BIN names (to compare builds), else the one built here.
func benchSeed(b *testing.B, user string) (dbPath, secret, bin string) {
	seed := os.Getenv("TEND_BENCH_SEED")
	if seed == "" {
		b.Skip("name the seeded database in TEND_BENCH_SEED (see BENCHMARKS.md)")
	}
	dbPath = filepath.Join(b.TempDir(), "tend.db")
	if err := copyFile(seed, dbPath); err != nil {
		b.Fatal(err)
	}
	secret = secretRE.FindString(mustRun(b, "--db", dbPath, "token", "issue", "--user", user))
	if bin = os.Getenv("TEND_BENCH_BIN"); bin == "" {
		bin = builtTend(b)
	}
	return dbPath, secret, bin
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}
