package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
	"tend/web"
	"tend/web/webtest"
)

// metricsEnv is an env whose server collects metrics the way tend serve
// wires them: the writer's wait from the store, the store's readings as
// sources, and the read budget behind a gatedStore so a refusal can be
// provoked without depending on a query's speed.
type metricsEnv struct {
	*env
	gate     *gatedStore
	metrics  *web.Metrics
	replicas []web.ReplicaStatus
}

func newMetricsEnv(tb testing.TB, limits app.Limits) *metricsEnv {
	tb.Helper()
	logs := &webtest.LogBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m := web.NewMetrics(log, "test")
	path := filepath.Join(tb.TempDir(), "test.db")
	admin := webtest.CopyBootstrapped(tb, path)
	db, err := store.Open(context.Background(), path, store.Options{OnWriterWait: m.ObserveWriterWait})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	clock := &storetest.Clock{}
	clock.Set(storetest.Epoch)
	db.Now = clock.Now
	g := &gatedStore{DB: db, held: make(chan struct{}), release: make(chan struct{})}
	svc := app.New(g, app.Options{Version: "test", Limits: limits})
	me := &metricsEnv{gate: g, metrics: m}
	m.Watch(web.MetricsSources{Files: db.FileSizes, OpenSessions: db.OpenSessions, NewestBackup: db.NewestBackup,
		WritersWaiting: db.WritersWaiting, Now: clock.Now, Replication: func() []web.ReplicaStatus { return me.replicas }})
	h := web.NewServer(svc, log)
	h.ServeMetrics(m)
	srv := httptest.NewServer(webtest.Validated(tb, h))
	tb.Cleanup(srv.Close)
	t, _ := tb.(*testing.T) // a benchmark uses the server, not e.ok and e.problem
	me.env = &env{&webtest.Env{T: t, DB: db, Clock: clock, Svc: svc, Srv: srv, Admin: admin, Logs: logs}}
	return me
}

// scrape reads /metrics as the administrator and parses it with the
// Prometheus library's own text parser.
func (e *env) scrape() map[string]*dto.MetricFamily {
	e.T.Helper()
	r := e.Do(http.MethodGet, "/metrics", e.Admin, nil)
	if r.Status != http.StatusOK {
		e.T.Fatalf("GET /metrics: %d\n%s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		e.T.Fatalf("Content-Type %q, want the text format", ct)
	}
	return parseMetrics(e.T, strings.NewReader(string(r.Body)))
}

func parseMetrics(t testing.TB, r io.Reader) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		t.Fatalf("the scrape does not parse: %v", err)
	}
	return fams
}

// sample finds the series of family name whose labels include want; nil
// when there is none.
func sample(fams map[string]*dto.MetricFamily, name string, want map[string]string) *dto.Metric {
	f := fams[name]
	if f == nil {
		return nil
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		return m
	}
	return nil
}

// value is a counter's or gauge's value; it fails the test when the series
// is missing.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	t.Helper()
	m := sample(fams, name, labels)
	switch {
	case m == nil:
		t.Fatalf("no series %s%v", name, labels)
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	}
	t.Fatalf("%s%v is neither a counter nor a gauge", name, labels)
	return 0
}

// TestMetricsScrape: after some traffic, a scrape parses and reports each
// family with the values the traffic implies: requests by route pattern
// (never the path: not the ref asked for, not a secret sent in an unknown
// path) and status, their latencies, the writer's wait, the read-budget
// refusals, the files' sizes, open sessions, the newest backup's age on the
// store's clock, and each replica's state from the replication hook.
func TestMetricsScrape(t *testing.T) {
	t.Parallel()
	e := newMetricsEnv(t, app.Limits{ReadBudgetMillis: 1})
	const secret = "tend_abcdefghij_klmnopqrstuvwxyz234567abcdefghijklmnopqr"
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	task := e.CreateTask(e.Admin, map[string]any{"title": "alpha task"})
	e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+lstItoa(lstNum(task["ref"])), e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/987654", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/nowhere/"+secret, e.Admin, nil)
	e.Do("BREW", "/coffee", "", nil)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/admin/backups", e.Admin, nil)
	e.SignIn(e.MintLink(e.Admin, nil))
	e.gate.toBudget.Store(true)
	e.Problem(http.StatusServiceUnavailable, "read_over_budget", http.MethodGet, "/v1/tasks?q=alpha", e.Admin, nil)
	e.gate.toBudget.Store(false)
	e.Clock.Advance(90 * time.Minute)
	last := time.Date(2026, time.March, 2, 10, 29, 0, 0, time.UTC)
	e.replicas = []web.ReplicaStatus{{Name: "file:///srv/replica", LastSync: last, Lag: 1500 * time.Millisecond, Errors: 2}}

	fams := e.scrape()
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"tend_http_requests_total", map[string]string{"method": "GET", "route": "/v1/me", "status": "200"}, 1},
		{"tend_http_requests_total", map[string]string{"method": "GET", "route": "/v1/tasks/:task", "status": "200"}, 1},
		{"tend_http_requests_total", map[string]string{"method": "GET", "route": "/v1/tasks/:task", "status": "404"}, 1},
		{"tend_http_requests_total", map[string]string{"method": "GET", "route": "unmatched", "status": "404"}, 1},
		{"tend_http_requests_total", map[string]string{"method": "other", "route": "unmatched", "status": "404"}, 1},
		{"tend_http_requests_total", map[string]string{"method": "POST", "route": "/v1/tasks", "status": "201"}, 1},
		{"tend_http_requests_total", map[string]string{"method": "GET", "route": "/v1/tasks", "status": "503"}, 1},
		{"tend_read_refusals_total", map[string]string{"code": "read_over_budget"}, 1},
		{"tend_read_refusals_total", map[string]string{"code": "reads_saturated"}, 0},
		{"tend_sessions_open", nil, 1},
		{"tend_backup_age_seconds", nil, 90 * 60},
		{"tend_store_writers_waiting", nil, 0},
		{"tend_replication_last_sync_timestamp_seconds", map[string]string{"replica": "file:///srv/replica"}, float64(last.Unix())},
		{"tend_replication_lag_seconds", map[string]string{"replica": "file:///srv/replica"}, 1.5},
		{"tend_replication_errors_total", map[string]string{"replica": "file:///srv/replica"}, 2},
		{"tend_build_info", map[string]string{"version": "test"}, 1},
	} {
		if got := value(t, fams, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	for _, m := range fams["tend_http_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if strings.Contains(l.GetValue(), "987654") || strings.Contains(l.GetValue(), "klmnopqrstuvwxyz") || strings.Contains(l.GetValue(), "BREW") {
				t.Errorf("a label holds a path or method the client chose: %v", m.GetLabel())
			}
		}
	}
	if h := sample(fams, "tend_http_request_duration_seconds", map[string]string{"method": "GET", "route": "/v1/tasks/:task"}).GetHistogram(); h.GetSampleCount() != 2 || len(h.GetBucket()) == 0 {
		t.Errorf("latency histogram of GET /v1/tasks/:task: %v", h)
	}
	// The bootstrap, the task, the sign-in link and the session all wrote.
	if h := sample(fams, "tend_store_writer_wait_seconds", nil).GetHistogram(); h.GetSampleCount() < 2 {
		t.Errorf("writer wait observed %d writes, want every write", h.GetSampleCount())
	}
	dbBytes := value(t, fams, "tend_database_size_bytes", nil)
	if dbBytes < 4096 {
		t.Errorf("tend_database_size_bytes = %v", dbBytes)
	}
	value(t, fams, "tend_database_wal_size_bytes", nil)
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "process_open_fds"} {
		if fams[name] == nil {
			t.Errorf("no %s: the runtime and process collectors are missing", name)
		}
	}
}

// TestMetricsBackupAbsentAndReplicationOff: without a backup there is no
// age to report (alert on its absence), and without the replication hook
// no replica series exist.
func TestMetricsBackupAbsentAndReplicationOff(t *testing.T) {
	t.Parallel()
	e := newMetricsEnv(t, app.Limits{})
	fams := e.scrape()
	for _, name := range []string{"tend_backup_age_seconds", "tend_replication_lag_seconds", "tend_replication_last_sync_timestamp_seconds"} {
		if fams[name] != nil {
			t.Errorf("%s reported: %v", name, fams[name])
		}
	}
	if got := value(t, fams, "tend_sessions_open", nil); got != 0 {
		t.Errorf("tend_sessions_open = %v, want 0", got)
	}
}

// TestMetricsAccess: on the main listener /metrics answers administrators
// only, refusing like the other administrators' routes (backups): 401
// without a credential (or with an unknown one), 403 forbidden to a
// workspace owner who is no administrator (by token or browser session)
// and to an administrator's credential narrowed away from instance:admin. A server that collects no metrics
// answers an administrator 404.
func TestMetricsAccess(t *testing.T) {
	t.Parallel()
	e := newMetricsEnv(t, app.Limits{})
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/metrics", "", nil)
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/metrics", "tend_abcdefghij_klmnopqrstuvwxyz234567abcdefghijklmnopqr", nil)
	bob := e.Member("bob", "owner")
	e.Problem(http.StatusForbidden, "forbidden", http.MethodGet, "/metrics", bob, nil)
	narrowed := e.Issue(e.Admin, map[string]any{"scopes": []string{"item:read", "project:read"}})["token"].(string)
	e.Problem(http.StatusForbidden, "forbidden", http.MethodGet, "/metrics", narrowed, nil)
	session := e.SignIn(e.MintLink(bob, nil))
	if r := e.Browser(http.MethodGet, "/metrics", session.Value, "", nil); r.Status != http.StatusForbidden {
		t.Errorf("bob's browser session: %d, want 403", r.Status)
	}
	if fams := e.scrape(); fams["tend_http_requests_total"] == nil {
		t.Error("the administrator's scrape lacks tend_http_requests_total")
	}

	plain := newEnv(t)
	plain.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/metrics", plain.Admin, nil)
	plain.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/metrics", "", nil)
}

// TestMetricsHandler: the handler for a listener of its own answers GET and
// HEAD /metrics without a credential, and nothing else.
func TestMetricsHandler(t *testing.T) {
	t.Parallel()
	e := newMetricsEnv(t, app.Limits{})
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	srv := httptest.NewServer(e.metrics.Handler())
	t.Cleanup(srv.Close)
	res, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	fams := parseMetrics(t, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || value(t, fams, "tend_http_requests_total", map[string]string{"route": "/v1/me"}) != 1 {
		t.Fatalf("GET /metrics on its own listener: %d", res.StatusCode)
	}
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{http.MethodHead, "/metrics", http.StatusOK},
		{http.MethodGet, "/v1/me", http.StatusNotFound},
		{http.MethodGet, "/", http.StatusNotFound},
		{http.MethodPost, "/metrics", http.StatusMethodNotAllowed},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, res.StatusCode, c.want)
		}
	}
}
