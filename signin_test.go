package main

import (
	"regexp"
	"strings"
	"testing"
)

func TestSignInPrintsAFreshLink(t *testing.T) {
	t.Parallel()
	dbPath := freshDB(t)
	mustRun(t, "--db", dbPath, "token", "issue") // creates the instance
	one := strings.TrimSpace(mustRun(t, "--db", dbPath, "signin", "--user", "admin", "--public-url", "https://tend.example"))
	two := strings.TrimSpace(mustRun(t, "--db", dbPath, "signin", "--addr", "127.0.0.1:9999"))
	if !regexp.MustCompile(`^https://tend\.example/signin\?link=` + secretRE.String() + `$`).MatchString(one) {
		t.Errorf("tend signin --public-url printed %q", one)
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:9999/signin\?link=` + secretRE.String() + `$`).MatchString(two) {
		t.Errorf("tend signin --addr printed %q", two)
	}
	if secretRE.FindString(one) == secretRE.FindString(two) {
		t.Error("two runs printed the same link")
	}
	if _, _, err := run(t, "--db", dbPath, "signin", "--user", "nobody"); err == nil {
		t.Error("tend signin --user nobody succeeded")
	}
}

// TestSignInLinkPointsAtTheServer: tend signin builds its link from what
// tend serve was last started with on the same file (kept in the
// database), not a fixed 127.0.0.1:8421; a flag still points it elsewhere.
func TestSignInLinkPointsAtTheServer(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	s := startServe(t, dbPath)
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`^(\S+)/signin\?link=` + secretRE.String() + "\n$")
	base := func(out string) string {
		t.Helper()
		m := link.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("tend signin printed %q", out)
		}
		return m[1]
	}
	if got := base(mustRun(t, "--db", dbPath, "signin")); got != "http://"+s.addr {
		t.Errorf("after serve --addr 127.0.0.1:0 (listening on %s), signin points at %s", s.addr, got)
	}
	s = startServe(t, dbPath, "--public-url", "https://tend.example.test")
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	if got := base(mustRun(t, "--db", dbPath, "signin", "--user", "admin")); got != "https://tend.example.test" {
		t.Errorf("after serve --public-url, signin points at %s", got)
	}
	if got := base(mustRun(t, "--db", dbPath, "signin", "--addr", "127.0.0.1:9999")); got != "http://127.0.0.1:9999" {
		t.Errorf("signin --addr points at %s", got)
	}
	if got := base(mustRun(t, "--db", dbPath, "signin", "--public-url", "https://other.example.test")); got != "https://other.example.test" {
		t.Errorf("signin --public-url points at %s", got)
	}
}

func TestReachable(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"127.0.0.1:8421":  "127.0.0.1:8421",
		"0.0.0.0:8421":    "127.0.0.1:8421",
		":8421":           "127.0.0.1:8421",
		"[::]:8421":       "[::1]:8421",
		"[::1]:9":         "[::1]:9",
		"tend.local:8421": "tend.local:8421",
	} {
		if got := reachable(in); got != want {
			t.Errorf("reachable(%q) = %q, want %q", in, got, want)
		}
	}
}
