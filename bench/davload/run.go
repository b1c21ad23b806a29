package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"tend/bench/benchmain"
)

// Run is one server measured in one round.
type Run struct {
	Server  string    `json:"server"`
	Round   int       `json:"round"`
	Started time.Time `json:"started"`
	// LoadAvg is /proc/loadavg's 1-minute figure before the first load and
	// after the last, where the system has one.
	LoadAvgStart string   `json:"loadavg_start,omitempty"`
	LoadAvgEnd   string   `json:"loadavg_end,omitempty"`
	Objects      int      `json:"objects"`
	Results      []Result `json:"results"`
}

// Result is one load's latencies.
type Result struct {
	Load     string  `json:"load"`
	Requests int     `json:"requests"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
}

// client is one keep-alive connection pool, the same for every server.
type client struct{ hc *http.Client }

func newClient() client {
	tr := &http.Transport{MaxIdleConns: 16, MaxIdleConnsPerHost: 16, IdleConnTimeout: time.Minute, DisableCompression: true}
	return client{hc: &http.Client{Transport: tr, Timeout: 5 * time.Minute}}
}

func (c client) do(req *http.Request) (int, []byte, error) {
	res, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// dav is the collection under test.
type dav struct {
	client
	ctx       context.Context
	base, col string // the server's base URL; the collection's path
	basic     string // the Authorization header for CalDAV
	bearer    string // the Authorization header for tend's API
}

// call sends one request and checks its status; it answers the body and
// how long the request took, from sending to the last byte read.
func (d *dav) call(method, path, body string, headers map[string]string, want ...int) ([]byte, time.Duration, error) {
	req, err := http.NewRequestWithContext(d.ctx, method, d.base+path, strings.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Authorization", d.basic)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	start := time.Now()
	status, answer, err := d.do(req)
	took := time.Since(start)
	if err != nil {
		return nil, took, err
	}
	if !slices.Contains(want, status) {
		return answer, took, fmt.Errorf("%s %s: %d %.300s", method, path, status, answer)
	}
	return answer, took, nil
}

const (
	queryAll = `<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">` +
		`<d:prop><d:getetag/><c:calendar-data/></d:prop>` +
		`<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>`
	xmlType = "application/xml; charset=utf-8"
)

func syncBody(token string) string {
	return `<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>` + token +
		`</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`
}

var (
	hrefRe  = regexp.MustCompile(`<(?:[A-Za-z0-9]+:)?href>([^<]+\.ics)</(?:[A-Za-z0-9]+:)?href>`)
	tokenRe = regexp.MustCompile(`<(?:[A-Za-z0-9]+:)?sync-token>([^<]+)</(?:[A-Za-z0-9]+:)?sync-token>`)
)

func (d *dav) report(body string) ([]byte, time.Duration, error) {
	return d.call("REPORT", d.col, body, map[string]string{"Depth": "1", "Content-Type": xmlType}, http.StatusMultiStatus)
}

// token answers the collection's current sync-token, syncing as a client
// does: following the token while the server cuts the answer (a 507
// member; tend sends at most 1,000 members an answer).
func (d *dav) token() (string, error) {
	tok := ""
	for {
		b, _, err := d.report(syncBody(tok))
		if err != nil {
			return "", err
		}
		m := tokenRe.FindSubmatch(b)
		if m == nil {
			return "", fmt.Errorf("no sync-token in %.300s", b)
		}
		tok = string(m[1])
		if !bytes.Contains(b, []byte(" 507 ")) {
			return tok, nil
		}
	}
}

func cliRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var run Run
	var base, col, user, out string
	var n, initial int
	var patch bool
	fs.StringVar(&run.Server, "server", "", "the server's name in the table (tend, radicale)")
	fs.StringVar(&base, "url", "", "the server's base URL")
	fs.StringVar(&col, "col", "", "the collection's path, e.g. /dav/calendars/default.home/")
	fs.StringVar(&user, "user", "", "the CalDAV user name")
	fs.IntVar(&n, "n", 200, "requests per delta, PUT and PATCH load")
	fs.IntVar(&initial, "initial", 5, "initial syncs")
	fs.IntVar(&run.Round, "round", 1, "the round this run belongs to")
	fs.BoolVar(&patch, "patch", false, "also time tend's API PATCH of the same change, alternated with the PUT")
	fs.StringVar(&out, "out", "", "append the run as a JSON line to this file (default: stdout)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	secret := os.Getenv("TEND_AB_TOKEN")
	if run.Server == "" || base == "" || col == "" || user == "" || n < 1 || initial < 1 {
		return fmt.Errorf("run needs -server, -url, -col, -user, and -n and -initial above 0")
	}
	d := &dav{client: newClient(), ctx: ctx, base: strings.TrimRight(base, "/"), col: col,
		basic:  "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+secret)),
		bearer: "Bearer " + secret}
	run.Started = time.Now().UTC()
	run.LoadAvgStart = loadAvg()
	if err := measure(d, &run, n, initial, patch, stderr); err != nil {
		return err
	}
	run.LoadAvgEnd = loadAvg()
	return benchmain.AppendRun(out, stdout, run)
}

// measure runs the workload once on d.
func measure(d *dav, run *Run, n, initial int, patch bool, progress io.Writer) error {
	// The first query is not timed: it warms what a server caches (Radicale
	// its item cache, both the page cache) and finds the task to change.
	all, _, err := d.report(queryAll)
	if err != nil {
		return err
	}
	hrefs := hrefRe.FindAllSubmatch(all, -1)
	run.Objects = strings.Count(string(all), "BEGIN:VTODO")
	if len(hrefs) == 0 || run.Objects != len(hrefs) {
		return fmt.Errorf("the initial query answered %d hrefs and %d VTODOs", len(hrefs), run.Objects)
	}
	target := string(hrefs[len(hrefs)/2][1])
	if i := strings.Index(target, "://"); i >= 0 { // an absolute href
		target = target[i+3:]
		target = target[strings.IndexByte(target, '/'):]
	}
	object, _, err := d.call(http.MethodGet, target, "", nil, http.StatusOK)
	if err != nil {
		return err
	}
	record := func(name string, lat []time.Duration) {
		r := summarise(name, lat)
		run.Results = append(run.Results, r)
		fmt.Fprintf(progress, "  %-18s %5d requests  p50 %9.2f ms  p99 %9.2f ms\n", name, r.Requests, r.P50ms, r.P99ms)
	}
	timed := func(name string, count int, body string) error {
		lat := make([]time.Duration, 0, count)
		for range count {
			_, took, err := d.report(body)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			lat = append(lat, took)
		}
		record(name, lat)
		return nil
	}
	if err := timed("initial-sync", initial, queryAll); err != nil {
		return err
	}
	tok, err := d.token()
	if err != nil {
		return err
	}
	if err := timed("empty-delta", n, syncBody(tok)); err != nil {
		return err
	}
	if _, err := d.put(target, object, 0); err != nil {
		return err
	}
	if err := timed("one-change-delta", n, syncBody(tok)); err != nil {
		return err
	}
	// With -patch, the two go in turns whose order alternates, so that
	// each follows the other as often: what a write leaves to do after its
	// answer (the search index, the worker's wake) falls on both alike.
	var puts, patches []time.Duration
	for i := 1; i <= n; i++ {
		steps := []string{"put", "patch"}
		if i%2 == 0 {
			steps = []string{"patch", "put"}
		}
		for _, step := range steps {
			switch {
			case step == "put":
				took, err := d.put(target, object, i)
				if err != nil {
					return fmt.Errorf("put: %w", err)
				}
				puts = append(puts, took)
			case patch:
				took, err := d.patch(target, i)
				if err != nil {
					return fmt.Errorf("patch: %w", err)
				}
				patches = append(patches, took)
			}
		}
	}
	record("put", puts)
	if patch {
		record("api-patch", patches)
	}
	return nil
}

// changed is the object with its SUMMARY replaced by the i-th change.
func changed(object []byte, i int) string {
	lines := strings.Split(string(object), "\r\n")
	for j, l := range lines {
		if strings.HasPrefix(l, "SUMMARY") {
			lines[j] = fmt.Sprintf("SUMMARY:Changed %d", i)
		}
	}
	return strings.Join(lines, "\r\n")
}

// put sends the i-th change of the object, unconditionally, as a client
// that already holds the ETag's object would.
func (d *dav) put(path string, object []byte, i int) (time.Duration, error) {
	_, took, err := d.call(http.MethodPut, path, changed(object, i), map[string]string{"Content-Type": "text/calendar; charset=utf-8"},
		http.StatusNoContent, http.StatusCreated, http.StatusOK)
	return took, err
}

// patch makes the same change through tend's API: the object's name
// without .ics is the task's id.
func (d *dav) patch(path string, i int) (time.Duration, error) {
	id := strings.TrimSuffix(path[strings.LastIndexByte(path, '/')+1:], ".ics")
	req, err := http.NewRequestWithContext(d.ctx, http.MethodPatch, d.base+"/v1/tasks/"+id,
		strings.NewReader(fmt.Sprintf(`{"title":"Changed %d"}`, i)))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", d.bearer)
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	status, answer, err := d.do(req)
	took := time.Since(start)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("PATCH /v1/tasks/%s: %d %.300s", id, status, answer)
	}
	return took, err
}

func summarise(name string, lat []time.Duration) Result {
	slices.Sort(lat)
	ms := func(q float64) float64 {
		i := int(math.Ceil(q*float64(len(lat)))) - 1
		return float64(lat[max(i, 0)]) / float64(time.Millisecond)
	}
	return Result{Load: name, Requests: len(lat), P50ms: ms(0.5), P99ms: ms(0.99)}
}

// loadAvg is the 1-minute load average, or "" where there is no /proc.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Fields(string(b))[0]
}
