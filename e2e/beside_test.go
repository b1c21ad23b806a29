package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestCLIBesideServer: the terminal commands on the database file and a
// tend serve on the same file, each a process of its own, writing at the
// same time, do not corrupt each other: every write of either is kept,
// under a ref of its own, and read by the other at once (the server's
// caches follow the file's writes); the file passes integrity_check.
func TestCLIBesideServer(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	srv := startChild(t, dbPath, true, "--timezone", "UTC")
	const each = 6
	var wg sync.WaitGroup
	errs := make(chan error, 2*each)
	for i := range each {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, errOut, err := runTend(t, "--db", dbPath, "add", fmt.Sprintf("on the file %d", i)); err != nil {
				errs <- fmt.Errorf("tend add on the file: %v\n%s", err, errOut)
			}
		}()
		go func() {
			defer wg.Done()
			status, body, err := srvRequest(t, srv, http.MethodPost, "/v1/tasks", fmt.Sprintf(`{"title":"on the server %d"}`, i))
			if err != nil || status != http.StatusCreated {
				errs <- fmt.Errorf("POST /v1/tasks: %d %s %v", status, body, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// Both see all of it, each task under its own ref.
	var listed struct {
		Items []struct {
			Ref   int    `json:"ref"`
			Title string `json:"title"`
		} `json:"items"`
	}
	_, body := srvDo(t, srv, http.MethodGet, "/v1/tasks?limit=100", "")
	if err := json.Unmarshal(body, &listed); err != nil {
		t.Fatal(err)
	}
	local := mustRun(t, "--db", dbPath, "ls", "--limit", "100", "--json")
	if local != string(body) {
		t.Errorf("the file and the server list different tasks:\n%s\n%s", local, body)
	}
	var refs []int
	for _, it := range listed.Items {
		refs = append(refs, it.Ref)
	}
	slices.Sort(refs)
	if len(refs) != 2*each || slices.Compact(slices.Clone(refs))[2*each-1] != 2*each {
		t.Fatalf("refs %v: want 1 to %d, each once", refs, 2*each)
	}

	// What one writes, the other reads on its very next request.
	mustRun(t, "--db", dbPath, "add", "Fresh on the file")
	if _, body := srvDo(t, srv, http.MethodGet, "/v1/tasks?ready=true&limit=100&format=compact", ""); !strings.Contains(string(body), "Fresh on the file") {
		t.Errorf("the server's ready listing misses the file's new task:\n%s", body)
	}
	mustRun(t, "--db", dbPath, "done", "1")
	if _, body := srvDo(t, srv, http.MethodGet, "/v1/tasks/1", ""); !strings.Contains(string(body), `"is_complete":true`) {
		t.Errorf("the server does not see #1 done on the file:\n%s", body)
	}
	if _, body := srvDo(t, srv, http.MethodGet, "/v1/agenda", ""); strings.Contains(string(body), `"ref":1,`) {
		t.Errorf("the server's agenda still lists #1, done on the file:\n%s", body)
	}
	srvDo(t, srv, http.MethodPost, "/v1/tasks/2/claim", "")
	if out := mustRun(t, "--db", dbPath, "show", "2", "--format", "compact"); !strings.Contains(out, "@admin (claimed)") {
		t.Errorf("the file does not see the server's claim on #2:\n%s", out)
	}

	// The server stops cleanly, and the file is whole.
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-srv.done:
		srv.done <- err
		if err != nil {
			t.Errorf("tend serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("tend serve did not stop")
	}
	openChecked(t, dbPath)
}

// srvDo sends a request to the child server as its administrator.
func srvDo(t *testing.T, srv *child, method, path, body string) (int, []byte) {
	t.Helper()
	status, b, err := srvRequest(t, srv, method, path, body)
	if err != nil {
		t.Fatal(err)
	}
	return status, b
}

// srvRequest is srvDo for any goroutine: it returns its error.
func srvRequest(t *testing.T, srv *child, method, path, body string) (int, []byte, error) {
	return apiRequest(t.Context(), srv.url, srv.token, method, path, body)
}

// TestTokenRevokedBesideServer: a credential issued by tend token, a process
// of its own, works on a running server at once, and once tend token
// revokes it, the server refuses it on the very next request, however many
// requests it answered since it last read the credential.
func TestTokenRevokedBesideServer(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	srv := startChild(t, dbPath, true, "--timezone", "UTC")
	out, errOut, err := runTend(t, "--db", dbPath, "token", "issue", "--title", "beside")
	secret := secretRE.FindString(out)
	if err != nil || secret == "" {
		t.Fatalf("tend token issue: %v\n%s%s", err, out, errOut)
	}
	holder := *srv
	holder.token = secret
	for range 3 {
		if status, body := srvDo(t, &holder, http.MethodGet, "/v1/me", ""); status != http.StatusOK {
			t.Fatalf("GET /v1/me with a credential issued beside the server: %d %s", status, body)
		}
	}
	if _, errOut, err := runTend(t, "--db", dbPath, "token", "revoke", secret[:len("tend_")+10]); err != nil {
		t.Fatalf("tend token revoke: %v\n%s", err, errOut)
	}
	status, body := srvDo(t, &holder, http.MethodGet, "/v1/me", "")
	if status != http.StatusUnauthorized || !strings.Contains(string(body), `"code":"unauthorized"`) {
		t.Fatalf("GET /v1/me with a credential revoked beside the server: %d %s; want 401 unauthorized", status, body)
	}
	if status, body := srvDo(t, srv, http.MethodGet, "/v1/me", ""); status != http.StatusOK {
		t.Fatalf("GET /v1/me with the administrator's credential: %d %s", status, body)
	}
}
