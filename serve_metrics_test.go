package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"tend/cli"
	"tend/web/webtest"
)

var metricsServingRE = regexp.MustCompile(`msg="serving metrics" addr=(\S+)`)

// get sends GET url with secret as the bearer credential (none when empty).
func get(t *testing.T, url, secret string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	r := webtest.Fetch(t, &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}, req)
	return r.Status, r.Body
}

func parseScrape(t *testing.T, body []byte) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("the scrape does not parse: %v\n%s", err, body)
	}
	return fams
}

// TestServeMetrics: tend serve wires the store into /metrics (the writer's
// wait, the files' sizes) and answers it on the main listener to the
// administrator only; with --metrics-addr :0 it also serves /metrics on a
// loopback listener of its own, to anyone who reaches it.
func TestServeMetrics(t *testing.T) {
	t.Parallel()
	s := startServe(t, tempDB(t), "--metrics-addr", ":0")
	secret := curlRE.FindStringSubmatch(s.out.String())[1]
	var m []string
	for deadline := time.Now().Add(20 * time.Second); m == nil; m = metricsServingRE.FindStringSubmatch(s.errb.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("no metrics listener in the log:\n%s", s.errb.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if !strings.HasPrefix(m[1], "127.0.0.1:") {
		t.Errorf("--metrics-addr :0 listens on %s, want loopback", m[1])
	}
	if status, _ := get(t, "http://"+s.addr+"/metrics", ""); status != http.StatusUnauthorized {
		t.Errorf("anonymous /metrics on the main listener: %d, want 401", status)
	}
	status, body := get(t, "http://"+s.addr+"/metrics", secret)
	if status != http.StatusOK {
		t.Fatalf("the administrator's /metrics: %d\n%s", status, body)
	}
	fams := parseScrape(t, body)
	if h := fams["tend_store_writer_wait_seconds"].GetMetric(); len(h) != 1 || h[0].GetHistogram().GetSampleCount() == 0 {
		t.Errorf("the first start's writes are not in tend_store_writer_wait_seconds: %v", h)
	}
	if g := fams["tend_database_size_bytes"].GetMetric(); len(g) != 1 || g[0].GetGauge().GetValue() <= 0 {
		t.Errorf("tend_database_size_bytes: %v", g)
	}
	if fams["tend_sessions_open"] == nil || fams["tend_read_refusals_total"] == nil {
		t.Error("the store's and the service's gauges are not wired")
	}

	status, body = get(t, "http://"+m[1]+"/metrics", "")
	if status != http.StatusOK {
		t.Fatalf("/metrics on --metrics-addr: %d\n%s", status, body)
	}
	if fams := parseScrape(t, body); fams["tend_http_requests_total"] == nil {
		t.Error("the metrics listener's scrape lacks the requests")
	}
	if status, _ := get(t, "http://"+m[1]+"/v1/me", secret); status != http.StatusNotFound {
		t.Errorf("the metrics listener answers the API: %d", status)
	}
}

func TestMetricsListenAddr(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{":9464", "127.0.0.1:9464"},
		{"127.0.0.1:9464", "127.0.0.1:9464"},
		{"0.0.0.0:9464", "0.0.0.0:9464"},
		{"[::]:9464", "[::]:9464"},
		{"100.64.0.7:9464", "100.64.0.7:9464"},
		{"localhost:9464", "localhost:9464"},
	} {
		got, err := metricsListenAddr(c.in)
		if err != nil || got != c.want {
			t.Errorf("metricsListenAddr(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"9464", "host", "::1"} {
		var u cli.UsageError
		if _, err := metricsListenAddr(in); !errors.As(err, &u) {
			t.Errorf("metricsListenAddr(%q): %v, want a usage error", in, err)
		}
	}
}

// TestServeLogFlags: --log-format json makes every line one JSON object,
// the access lines included; --log-level warn drops the access lines; the
// environment sets both; a value outside the lists is a usage error.
func TestServeLogFlags(t *testing.T) {
	t.Parallel()
	s := startServe(t, tempDB(t), "--log-format", "json", "--log-level", "debug")
	secret := curlRE.FindStringSubmatch(s.out.String())[1]
	getMe(t, s.addr, secret)
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	var access map[string]any
	sc := bufio.NewScanner(strings.NewReader(s.errb.String()))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("a log line is not JSON: %v\n%s", err, sc.Text())
		}
		if line["msg"] == "request" {
			access = line
		}
	}
	if access == nil || access["route"] != "/v1/me" || access["status"] != 200.0 || access["credential"] != secret[:15] {
		t.Errorf("access line %v", access)
	}
	if strings.Contains(s.errb.String(), secret[15:]) {
		t.Error("the secret reached the log")
	}

	db := tempDB(t)
	for _, args := range [][]string{{"--log-format", "xml"}, {"--log-level", "trace"}} {
		_, _, err := run(t, append([]string{"--db", db, "serve", "--addr", "127.0.0.1:0"}, args...)...)
		var u cli.UsageError
		if !errors.As(err, &u) {
			t.Errorf("serve %v: %v, want a usage error", args, err)
		}
	}
}

// TestLogLevelAndEnv: a level drops what is below it; TEND_LOG_FORMAT and
// TEND_LOG_LEVEL are the flags' defaults on serve and mcp.
func TestLogLevelAndEnv(t *testing.T) {
	var b strings.Builder
	log, err := logFlags{format: "text", level: "warn"}.logger(&b)
	if err != nil {
		t.Fatal(err)
	}
	log.Info("request")
	log.Warn("disk nearly full")
	if got := b.String(); strings.Contains(got, "request") || !strings.Contains(got, "level=WARN") {
		t.Errorf("at warn the log holds %q", got)
	}

	t.Setenv("TEND_LOG_LEVEL", "error")
	t.Setenv("TEND_LOG_FORMAT", "json")
	root := newRootCmd(io.Discard, io.Discard)
	for _, name := range []string{"serve", "mcp"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		if lv, ft := cmd.Flags().Lookup("log-level"), cmd.Flags().Lookup("log-format"); lv.DefValue != "error" || ft.DefValue != "json" {
			t.Errorf("%s: --log-level %s, --log-format %s by default; want the environment's error and json", name, lv.DefValue, ft.DefValue)
		}
	}
	t.Setenv("TEND_LOG_FORMAT", "yaml")
	if _, _, err := run(t, "--db", tempDB(t), "mcp", "--token", "x"); err == nil || !strings.Contains(err.Error(), `not "yaml"`) {
		t.Errorf("mcp with TEND_LOG_FORMAT=yaml: %v", err)
	}
}
