package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tend/app"
)

// Metrics: GET /metrics in the Prometheus text format. Requests are counted
// by the route pattern they matched (never their path, which may hold a
// secret and would make a series per item), method and status; the rest
// is read at scrape time from MetricsSources, each source cheap (a stat, a
// directory's names, an atomic) or cached for sourceTTL, so a scrape costs
// no scan of a table. The main listener answers /metrics to a credential
// holding instance:admin only (app.Service.AuthorizeMetrics); a listener
// of its own (Metrics.Handler, tend serve --metrics-addr) answers anyone
// who reaches it, which is why that one listens on loopback unless the
// operator names a host.

// unmatched is the route label of a request no route matched: one label for
// every unknown path, so a scanner cannot grow the series without bound.
const unmatched = "unmatched"

// statusClientGone is the status recorded for a request whose client went
// away before its answer (nginx's 499): a closed tab, a cancelled call.
const statusClientGone = 499

// sourceTTL is how long a source that queries (open sessions) or lists a
// directory (the newest backup) is trusted before it is read again, in the
// background: a scrape never waits for it after the first.
const sourceTTL = 15 * time.Second

// requestBuckets are few, as every route seen carries one histogram (a
// scrape writes a line per bucket per route), and placed at what tend
// promises: most answers within 5 ms, pages within 50, an expensive read
// cut at its budget, a live-update poll answered within 30 s.
var (
	requestBuckets = []float64{.001, .005, .01, .025, .05, .1, .5, 2.5, 30}
	waitBuckets    = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}
)

// MetricsSources are what /metrics reads beyond the requests it counts
// itself: each is called at scrape time, and any may be nil (its metrics are
// then left out).
type MetricsSources struct {
	// Files reports the database file's and its write-ahead log's sizes.
	Files func() (dbBytes, walBytes int64, err error)
	// OpenSessions counts browser sessions neither revoked nor expired.
	OpenSessions func(ctx context.Context) (int64, error)
	// NewestBackup is when the newest backup was taken; ok is false when
	// there is none.
	NewestBackup func() (at time.Time, ok bool, err error)
	// WritersWaiting is how many write requests are queued for the writer.
	WritersWaiting func() int64
	// Replication reports each replica's state; nil while nothing replicates.
	Replication func() []ReplicaStatus
	// Follow reports a standby's lag; ok is false while the server does
	// not follow a primary (never did, or was promoted).
	Follow func() (st FollowStatus, ok bool)
	// Now is the clock a backup's age is measured on; default time.Now.
	Now func() time.Time
}

// ReplicaStatus is one replica's state as /metrics reports it.
type ReplicaStatus struct {
	// Name labels the replica's series: its URL without credentials.
	Name string
	// LastSync is when the replica last took the database's changes; zero
	// before the first sync.
	LastSync time.Time
	// Lag is how far the replica is behind the database.
	Lag time.Duration
	// Errors counts failed syncs since the server started.
	Errors int64
}

// Metrics holds what /metrics reports. Build one with NewMetrics, give the
// store's OnWriterWait its ObserveWriterWait, its sources with Watch, and
// hand it to a Server with ServeMetrics.
type Metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	writerWait prometheus.Histogram
	expose     http.Handler
}

// NewMetrics builds the registry: request counts and latencies, the
// writer's wait, the build, and the Go runtime's and the process's own
// metrics. log hears what fails while collecting.
func NewMetrics(log *slog.Logger, version string) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tend_http_requests_total",
			Help: "HTTP requests answered, by method, route pattern and status (499: the client went away)."},
			[]string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "tend_http_request_duration_seconds",
			Help: "Time from a request's arrival to its answer, by method and route pattern.", Buckets: requestBuckets},
			[]string{"method", "route"}),
		writerWait: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "tend_store_writer_wait_seconds",
			Help: "Time a write request waited for the database's single writer before its work could start.", Buckets: waitBuckets}),
	}
	build := prometheus.NewGauge(prometheus.GaugeOpts{Name: "tend_build_info", Help: "The running tend's version (always 1).",
		ConstLabels: prometheus.Labels{"version": version}})
	build.Set(1)
	m.reg.MustRegister(m.requests, m.duration, m.writerWait, build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Uncompressed: a scrape comes over loopback or a tailnet, where gzip's
	// CPU (1.4 of a 4.6 ms scrape, BENCHMARKS.md) buys nothing.
	m.expose = promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorLog: slogPrinter{log}, ErrorHandling: promhttp.ContinueOnError,
		DisableCompression: true})
	return m
}

// ObserveWriterWait records one write request's wait for the writer; it is
// what store.Options.OnWriterWait is given.
func (m *Metrics) ObserveWriterWait(d time.Duration) { m.writerWait.Observe(d.Seconds()) }

// Watch adds the metrics read from src at scrape time. Call it once.
func (m *Metrics) Watch(src MetricsSources) {
	if src.Now == nil {
		src.Now = time.Now
	}
	c := &sourceCollector{src: src}
	c.sessions.load = func() (int64, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		return src.OpenSessions(ctx)
	}
	c.backup.load = func() (backupSeen, error) {
		at, ok, err := src.NewestBackup()
		return backupSeen{at, ok}, err
	}
	m.reg.MustRegister(c)
}

// Handler answers GET /metrics with no check of who asks: it is for a
// listener of its own (tend serve --metrics-addr), which the operator keeps
// where only the scraper reaches it. Any other path is 404.
func (m *Metrics) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		m.expose.ServeHTTP(w, r)
	})
}

// observeRequest counts one answered request.
func (m *Metrics) observeRequest(method, route string, status int, took time.Duration) {
	method = methodLabel(method)
	m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(method, route).Observe(took.Seconds())
}

// methodLabel bounds the method label to the methods HTTP defines: a client
// may send any token as a method, and each would be a series.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}

// ServeMetrics makes s record its requests into m, answer GET /metrics to
// administrators, and report the service's read-budget refusals. Call it
// once, before serving.
func (s *Server) ServeMetrics(m *Metrics) {
	m.reg.MustRegister(refusalCollector{s.app})
	s.metrics = m
}

// handleMetrics answers GET /metrics on the main listener, to
// administrators only (as the backups routes: 401 without a credential,
// 403 forbidden with one that lacks instance:admin).
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.AuthorizeMetrics(r.Context(), a); err != nil {
		return err
	}
	if s.metrics == nil {
		return app.Errorf(app.CodeNotFound, "this server collects no metrics")
	}
	s.metrics.expose.ServeHTTP(w, r)
	return nil
}

var (
	descDBBytes   = prometheus.NewDesc("tend_database_size_bytes", "Size of the database file.", nil, nil)
	descWALBytes  = prometheus.NewDesc("tend_database_wal_size_bytes", "Size of the database's write-ahead log.", nil, nil)
	descSessions  = prometheus.NewDesc("tend_sessions_open", "Browser sessions neither revoked nor expired (counted at most every 15 s).", nil, nil)
	descBackupAge = prometheus.NewDesc("tend_backup_age_seconds", "Age of the newest backup, of any kind (looked for at most every 15 s); absent while there is none.", nil, nil)
	descWaiting   = prometheus.NewDesc("tend_store_writers_waiting", "Write requests queued for the database's single writer.", nil, nil)
	descLastSync  = prometheus.NewDesc("tend_replication_last_sync_timestamp_seconds", "When the replica last took the database's changes (Unix time; 0 before the first sync).", []string{"replica"}, nil)
	descLag       = prometheus.NewDesc("tend_replication_lag_seconds", "How far the replica is behind the database.", []string{"replica"}, nil)
	descSyncErrs  = prometheus.NewDesc("tend_replication_errors_total", "Failed syncs to the replica since the server started.", []string{"replica"}, nil)
	descFollowLag = prometheus.NewDesc("tend_follow_lag_seconds", "On a standby: age of the oldest change on the primary's replica not yet applied here (0 when caught up).", nil, nil)
	descFollowTxs = prometheus.NewDesc("tend_follow_lag_transactions", "On a standby: transactions on the primary's replica not yet applied here.", nil, nil)
	descFollowTx  = prometheus.NewDesc("tend_follow_applied_txid", "On a standby: the last transaction of the primary's replica applied here.", nil, nil)
	descRefusals  = prometheus.NewDesc("tend_read_refusals_total", "Expensive reads refused: reads_saturated (no slot came free in time) and read_over_budget (the read ran past its budget).", []string{"code"}, nil)
)

// sourceCollector reads MetricsSources at scrape time.
type sourceCollector struct {
	src      MetricsSources
	sessions cached[int64]
	backup   cached[backupSeen]
}

type backupSeen struct {
	at time.Time
	ok bool
}

func (c *sourceCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descDBBytes, descWALBytes, descSessions, descBackupAge, descWaiting, descLastSync, descLag, descSyncErrs,
		descFollowLag, descFollowTxs, descFollowTx} {
		ch <- d
	}
}

func (c *sourceCollector) Collect(ch chan<- prometheus.Metric) {
	src := c.src
	if src.Files != nil {
		if db, wal, err := src.Files(); err != nil {
			ch <- prometheus.NewInvalidMetric(descDBBytes, err)
		} else {
			ch <- prometheus.MustNewConstMetric(descDBBytes, prometheus.GaugeValue, float64(db))
			ch <- prometheus.MustNewConstMetric(descWALBytes, prometheus.GaugeValue, float64(wal))
		}
	}
	if src.OpenSessions != nil {
		if n, err := c.sessions.get(); err != nil {
			ch <- prometheus.NewInvalidMetric(descSessions, err)
		} else {
			ch <- prometheus.MustNewConstMetric(descSessions, prometheus.GaugeValue, float64(n))
		}
	}
	if src.NewestBackup != nil {
		if b, err := c.backup.get(); err != nil {
			ch <- prometheus.NewInvalidMetric(descBackupAge, err)
		} else if b.ok {
			ch <- prometheus.MustNewConstMetric(descBackupAge, prometheus.GaugeValue, max(0, src.Now().Sub(b.at).Seconds()))
		}
	}
	if src.WritersWaiting != nil {
		ch <- prometheus.MustNewConstMetric(descWaiting, prometheus.GaugeValue, float64(src.WritersWaiting()))
	}
	if src.Replication != nil {
		for _, r := range src.Replication() {
			last := 0.0
			if !r.LastSync.IsZero() {
				last = float64(r.LastSync.UnixMilli()) / 1000
			}
			ch <- prometheus.MustNewConstMetric(descLastSync, prometheus.GaugeValue, last, r.Name)
			ch <- prometheus.MustNewConstMetric(descLag, prometheus.GaugeValue, r.Lag.Seconds(), r.Name)
			ch <- prometheus.MustNewConstMetric(descSyncErrs, prometheus.CounterValue, float64(r.Errors), r.Name)
		}
	}
	if src.Follow != nil {
		if st, ok := src.Follow(); ok {
			ch <- prometheus.MustNewConstMetric(descFollowLag, prometheus.GaugeValue, st.Behind.Seconds())
			ch <- prometheus.MustNewConstMetric(descFollowTxs, prometheus.GaugeValue, float64(st.Transactions))
			ch <- prometheus.MustNewConstMetric(descFollowTx, prometheus.GaugeValue, float64(st.AppliedTXID))
		}
	}
}

// refusalCollector reports the service's read-budget refusals.
type refusalCollector struct{ svc Service }

func (c refusalCollector) Describe(ch chan<- *prometheus.Desc) { ch <- descRefusals }

func (c refusalCollector) Collect(ch chan<- prometheus.Metric) {
	r := c.svc.ReadRefusals()
	ch <- prometheus.MustNewConstMetric(descRefusals, prometheus.CounterValue, float64(r.Saturated), string(app.CodeReadsSaturated))
	ch <- prometheus.MustNewConstMetric(descRefusals, prometheus.CounterValue, float64(r.OverBudget), string(app.CodeReadOverBudget))
}

// cached is a value read at most once every sourceTTL. The first get reads
// it; later ones answer the last value at once and, when it is older than
// sourceTTL, start one read in the background: counting open sessions
// scans every session ever kept (53 ms at 100,000, BENCHMARKS.md), which a
// scrape must not wait for. A failed read is reported by the next get.
type cached[T any] struct {
	mu      sync.Mutex
	load    func() (T, error)
	v       T
	err     error
	at      time.Time // when v was read; zero before the first read
	loading bool
}

func (c *cached[T]) get() (T, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		v, err := c.load()
		if err != nil {
			return v, err
		}
		c.v, c.at = v, time.Now()
		return v, nil
	}
	if !c.loading && time.Since(c.at) >= sourceTTL {
		c.loading = true
		go c.refresh()
	}
	return c.v, c.err
}

func (c *cached[T]) refresh() {
	v, err := c.load()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loading, c.err, c.at = false, err, time.Now()
	if err == nil {
		c.v = v
	}
}

// slogPrinter hands promhttp's collection errors to the server's log.
type slogPrinter struct{ log *slog.Logger }

func (p slogPrinter) Println(v ...any) {
	p.log.Warn("collecting metrics", "err", fmt.Sprint(v...))
}
