package dav_test

import (
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// clientsRequired makes a missing CalDAV client a failure, not a skip: CI
// sets it where it installs them.
const clientsRequired = "TEND_DAV_CLIENTS_REQUIRED"

// needPython answers Debian's python3 when it has python3-caldav, and
// skips (or fails, under clientsRequired) when it has not.
func needPython(t *testing.T) string {
	t.Helper()
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import caldav").Run(); err != nil {
		if os.Getenv(clientsRequired) == "1" {
			t.Fatalf("python3-caldav is missing and %s=1: %v", clientsRequired, err)
		}
		t.Skipf("python3-caldav is not installed (apt-get install python3-caldav); set %s=1 to make this a failure", clientsRequired)
	}
	return py
}

// TestDavPythonCaldav drives the server with python3-caldav from the bare
// server address (discovery, search, save, complete, sync tokens, a stale
// ETag, delete), then checks through the API what it did.
func TestDavPythonCaldav(t *testing.T) {
	py := needPython(t)
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Made in tend", "project": "home"}, http.StatusCreated)
	cmd := exec.Command(py, "testdata/client.py")
	cmd.Env = append(os.Environ(), "TEND_URL="+f.srv.URL+"/", "TEND_USER="+f.user, "TEND_TOKEN="+f.admin)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("python3-caldav: %v", err)
	}
	for _, want := range []string{"open ['Made in tend', 'Water the plants']", "completed; open now ['Made in tend']", "stale put 412", "sync 2 then 1 moved on True", "deleted; left 1"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the client's run lacks %q", want)
		}
	}
	trash := f.api(http.MethodGet, "/v1/tasks?deleted=true&project=home", f.admin, nil, http.StatusOK)["items"].([]any)
	if len(trash) != 1 || trash[0].(map[string]any)["title"] != "Water the ferns" || trash[0].(map[string]any)["is_complete"] != true {
		t.Errorf("the trash after the client's delete: %v", trash)
	}
}
