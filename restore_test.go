package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/cli"
	"tend/web/webtest"
)

// apiClient calls a running server's API with one credential.
type apiClient struct {
	t     *testing.T
	base  string
	token string
}

func (c apiClient) do(method, path string, body any) (int, []byte) {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res := webtest.Fetch(c.t, http.DefaultClient, req)
	return res.Status, res.Body
}

// must calls the API and fails the test unless it answers 2xx; it returns
// the decoded body.
func (c apiClient) must(method, path string, body any) map[string]any {
	c.t.Helper()
	status, out := c.do(method, path, body)
	if status/100 != 2 {
		c.t.Fatalf("%s %s: %d %s", method, path, status, out)
	}
	var v map[string]any
	if len(out) > 0 {
		if err := json.Unmarshal(out, &v); err != nil {
			c.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return v
}

// items lists the values of field in a list response's items.
func items(v map[string]any, field string) []string {
	var out []string
	list, _ := v["items"].([]any)
	for _, it := range list {
		if m, ok := it.(map[string]any); ok {
			out = append(out, fmt.Sprint(m[field]))
		}
	}
	return out
}

// readEverything reads every listing, and every item each lists, as the
// API answers them: the state a restore must bring back exactly.
func readEverything(c apiClient) map[string]string {
	c.t.Helper()
	got := map[string]string{}
	read := func(path string) map[string]any {
		status, out := c.do(http.MethodGet, path, nil)
		got[path] = fmt.Sprintf("%d %s", status, out)
		var v map[string]any
		_ = json.Unmarshal(out, &v)
		return v
	}
	for _, p := range []string{"/v1/instance", "/v1/users", "/v1/workspaces", "/v1/statuses", "/v1/tags", "/v1/link-types",
		"/v1/changes", "/v1/journal", "/v1/agenda", "/v1/tasks?deleted=true&limit=500", "/v1/documents?deleted=true"} {
		read(p)
	}
	for _, ref := range items(read("/v1/tasks?include_completed=true&limit=500"), "ref") {
		for _, sub := range []string{"", "/comments", "/events", "/links", "/backlinks", "/tree"} {
			read("/v1/tasks/" + ref + sub)
		}
	}
	for _, ref := range items(read("/v1/documents"), "ref") {
		for _, sub := range []string{"", "/comments", "/events", "/links"} {
			read("/v1/documents/" + ref + sub)
		}
	}
	for _, key := range items(read("/v1/projects"), "key") {
		for _, sub := range []string{"", "/members", "/events", "/settings"} {
			read("/v1/projects/" + key + sub)
		}
	}
	return got
}

// TestRestoreDrill: a backup is taken while the server runs, more is
// written (created, changed, commented, completed, trashed), the server is
// stopped, tend restore puts the backup back, and after a restart every
// read answers exactly what it answered when the backup was taken.
func TestRestoreDrill(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	s := startServe(t, dbPath)
	m := curlRE.FindStringSubmatch(s.out.String())
	if m == nil {
		t.Fatal("no token printed")
	}
	c := apiClient{t: t, base: "http://" + s.addr, token: m[1]}
	c.must(http.MethodPost, "/v1/projects", map[string]any{"key": "home", "title": "Home"})
	c.must(http.MethodPost, "/v1/projects", map[string]any{"key": "work", "title": "Work"})
	var refs []string
	for i, title := range []string{"Water the plants #home", "Call the plumber", "Write the report", "Book flights"} {
		body := map[string]any{"title": title, "project": []string{"home", "work"}[i%2], "tags": []string{"errand"}}
		refs = append(refs, fmt.Sprint(c.must(http.MethodPost, "/v1/tasks", body)["ref"]))
	}
	doc := c.must(http.MethodPost, "/v1/documents", map[string]any{"title": "Runbook", "body": "Restart with tend serve."})
	c.must(http.MethodPost, "/v1/tasks/"+refs[0]+"/comments", map[string]any{"body": "twice a week"})
	c.must(http.MethodPost, "/v1/tasks/"+refs[1]+"/complete", nil)
	c.must(http.MethodPost, "/v1/tasks/"+refs[2]+"/links", map[string]any{"link_type": "relates_to", "target": doc["ref"], "target_type": "document"})
	before := readEverything(c)

	out := mustRun(t, "--db", dbPath, "backup")
	bm := backupLineRE.FindStringSubmatch(out)
	if bm == nil {
		t.Fatalf("tend backup printed %q", out)
	}

	later := fmt.Sprint(c.must(http.MethodPost, "/v1/tasks", map[string]any{"title": "Written after the backup"})["ref"])
	c.must(http.MethodPatch, "/v1/tasks/"+refs[0], map[string]any{"title": "Water the plants, renamed"})
	c.must(http.MethodPost, "/v1/tasks/"+refs[3]+"/complete", nil)
	c.must(http.MethodDelete, "/v1/tasks/"+refs[2], nil)
	c.must(http.MethodPost, "/v1/tasks/"+refs[1]+"/comments", map[string]any{"body": "after"})
	c.must(http.MethodPost, "/v1/projects", map[string]any{"key": "garden", "title": "Garden"})
	c.must(http.MethodPatch, "/v1/documents/"+fmt.Sprint(doc["ref"]), map[string]any{"body": "Changed."})
	if reflect.DeepEqual(readEverything(c), before) {
		t.Fatal("the writes after the backup changed no read")
	}

	_, _, err := run(t, "--db", dbPath, "restore", bm[1])
	if app.CodeOf(err) != app.CodeBusy {
		t.Fatalf("restore while the server runs: %v; want busy", err)
	}
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	out = mustRun(t, "--db", dbPath, "restore", bm[1])
	for _, want := range []string{
		"restored " + bm[1] + " into " + dbPath + "\n",
		"schema " + bm[4] + "\n",
		"4 tasks, 1 documents, 3 projects; newest event ",
		"the previous database is kept as " + dbPath + ".before-restore-",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tend restore printed:\n%s\nwant it to say %q", out, want)
		}
	}

	s = startServe(t, dbPath)
	c.base = "http://" + s.addr
	after := readEverything(c)
	var differ []string
	for path, want := range before {
		if after[path] != want {
			differ = append(differ, fmt.Sprintf("%s\n  at the backup: %.300s\n  restored:      %.300s", path, want, after[path]))
		}
	}
	for path := range after {
		if _, ok := before[path]; !ok {
			differ = append(differ, path+" is read after the restore only")
		}
	}
	sort.Strings(differ)
	if len(differ) > 0 {
		t.Errorf("%d reads differ from the state at the backup:\n%s", len(differ), strings.Join(differ, "\n"))
	}
	if status, _ := c.do(http.MethodGet, "/v1/tasks/"+later, nil); status != http.StatusNotFound {
		t.Errorf("the task written after the backup answers %d after the restore, want 404", status)
	}
}

var restoredRE = regexp.MustCompile(`the previous database is kept as (\S+) `)

func TestRestoreCommand(t *testing.T) {
	t.Parallel()
	dbPath := tempDB(t)
	newDatabase(t, dbPath)
	mustRun(t, "--db", dbPath, "token", "issue") // creates the instance
	dir := filepath.Join(t.TempDir(), "elsewhere")
	bm := backupLineRE.FindStringSubmatch(mustRun(t, "--db", dbPath, "backup", "--dir", dir))
	if bm == nil {
		t.Fatal("no backup")
	}
	mustRun(t, "--db", dbPath, "token", "issue", "--user", "bob")

	// A bare name is looked up in --dir; a path is taken as it is.
	out := mustRun(t, "--db", dbPath, "restore", bm[1], "--dir", dir)
	first := restoredRE.FindStringSubmatch(out)
	if first == nil {
		t.Fatalf("restore printed %q", out)
	}
	if users := mustRun(t, "--db", dbPath, "token", "list"); strings.Contains(users, "bob") {
		t.Errorf("after restoring a backup taken before bob, token list shows him:\n%s", users)
	}
	out = mustRun(t, "--db", dbPath, "restore", first[1])
	if users := mustRun(t, "--db", dbPath, "token", "list"); !strings.Contains(users, "bob") {
		t.Errorf("restoring the file set aside did not bring bob back:\n%s\n%s", out, users)
	}

	// Into a new file: nothing set aside, nothing stopped.
	fresh := filepath.Join(t.TempDir(), "try", "tend.db")
	out = mustRun(t, "--db", fresh, "restore", filepath.Join(dir, bm[1]))
	if strings.Contains(out, "previous database") || !strings.Contains(out, "into "+fresh) {
		t.Errorf("restore into a new file printed:\n%s", out)
	}

	var u cli.UsageError
	for _, args := range [][]string{
		{"restore"},
		{"restore", "a.db", "b.db"},
		{"restore", "a.db", "--from-replica", "file:///srv/r"},
		{"restore", "a.db", "--at", "2026-07-02T10:00:00Z"},
		{"restore", "--from-replica", "file:///srv/r", "--at", "yesterday"},
	} {
		if _, _, err := run(t, append([]string{"--db", dbPath}, args...)...); !errors.As(err, &u) {
			t.Errorf("tend %s: %v; want a usage error", strings.Join(args, " "), err)
		}
	}
	if _, _, err := run(t, "--db", dbPath, "restore", "tend-nosuch.db"); err == nil || !strings.Contains(err.Error(), "no backup at") {
		t.Errorf("restore of a missing backup: %v", err)
	}
	if _, err := os.Stat(dbPath); err != nil {
		t.Errorf("the database after refused restores: %v", err)
	}
}

func TestServeReplicaFlags(t *testing.T) {
	var u cli.UsageError
	for _, args := range [][]string{
		{"--replica", "file:///srv/a", "--replica", "file:///srv/b"},
		{"--replica", "file:///srv/a", "--replica-sync-interval", "1ms"},
	} {
		_, _, err := run(t, append([]string{"--db", tempDB(t), "serve", "--addr", "127.0.0.1:0"}, args...)...)
		if !errors.As(err, &u) {
			t.Errorf("serve %s: %v; want a usage error", strings.Join(args, " "), err)
		}
	}
	t.Setenv("TEND_REPLICA_SYNC_INTERVAL", "often")
	if _, _, err := run(t, "--db", tempDB(t), "serve", "--addr", "127.0.0.1:0"); !errors.As(err, &u) || !strings.Contains(err.Error(), "TEND_REPLICA_SYNC_INTERVAL") {
		t.Errorf("serve with TEND_REPLICA_SYNC_INTERVAL=often: %v; want a usage error", err)
	}
	t.Setenv("TEND_REPLICA_SYNC_INTERVAL", "")
	t.Setenv("TEND_REPLICA", "file:///srv/a, file:///srv/b")
	if _, _, err := run(t, "--db", tempDB(t), "serve", "--addr", "127.0.0.1:0"); !errors.As(err, &u) || !strings.Contains(err.Error(), "one --replica") {
		t.Errorf("serve with two replicas in TEND_REPLICA: %v; want a usage error", err)
	}
	t.Setenv("TEND_REPLICA", "")
	dbPath := tempDB(t)
	if _, _, err := run(t, "--db", dbPath, "serve", "--addr", "127.0.0.1:0", "--replica", "s3://key:hunter2@bucket/tend"); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("serve with a password in the replica URL: %v; want a refusal that does not repeat it", err)
	}
}

// TestServeReplicationInMetrics: with --replica, /metrics reports the
// replica's last sync, lag and errors, labelled with its URL without
// credentials; Litestream's own series (on Prometheus's default registry)
// are not served.
func TestServeReplicationInMetrics(t *testing.T) {
	t.Parallel()
	replica := "file://" + filepath.Join(t.TempDir(), "replica")
	s := startServe(t, tempDB(t), "--replica", replica, "--replica-sync-interval", "50ms")
	secret := curlRE.FindStringSubmatch(s.out.String())[1]
	var lag *float64
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		status, body := get(t, "http://"+s.addr+"/metrics", secret)
		if status != http.StatusOK {
			t.Fatalf("/metrics: %d %s", status, body)
		}
		fams := parseScrape(t, body)
		for name := range fams {
			if strings.HasPrefix(name, "litestream_") {
				t.Fatalf("/metrics serves Litestream's own series: %s", name)
			}
		}
		last := fams["tend_replication_last_sync_timestamp_seconds"].GetMetric()
		if len(last) == 1 && last[0].GetGauge().GetValue() > 0 {
			if l := last[0].GetLabel(); len(l) != 1 || l[0].GetValue() != replica {
				t.Errorf("the replica's series is labelled %v, want replica=%s", l, replica)
			}
			if m := fams["tend_replication_errors_total"].GetMetric(); len(m) != 1 || m[0].GetCounter().GetValue() != 0 {
				t.Errorf("tend_replication_errors_total: %v", m)
			}
			if m := fams["tend_replication_lag_seconds"].GetMetric(); len(m) == 1 {
				v := m[0].GetGauge().GetValue()
				lag = &v
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no successful sync in /metrics after 20 s:\n%s", body)
		}
	}
	if lag == nil || *lag < 0 {
		t.Errorf("tend_replication_lag_seconds = %v", lag)
	}
}
