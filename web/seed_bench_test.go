package web_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/web/webtest"
)

// The benchmarks in this file measure the API the way a client sees it:
// over loopback through httptest, with a keep-alive client, against a
// database seeded through the real Service. They only run with -bench; see
// BENCHMARKS.md ("Projects and tasks") for the commands and the figures.
//
// The seeded database is built once per test binary (seeding takes about
// two and a half minutes on a 2-core machine) and shared by every benchmark
// here, the creates last; TestMain removes it.

// Seed shape: the issue's "100,000 tasks in 50 projects with tags,
// subtasks and 20,000 blocks links".
const (
	seedProjects = 50
	seedTasks    = 100_000
	seedBlocks   = 20_000
	seedTags     = 40
)

// seeded is the shared benchmark instance.
type seeded struct {
	dir    string
	db     *store.DB
	svc    *app.Service
	srv    *httptest.Server
	client *http.Client
	token  string
	refs   []int64 // every task's ref
	took   time.Duration
}

// shared is a benchmark fixture that build makes on first use, for every
// benchmark that asks after it; TestMain closes it.
type shared[T interface{ close() }] struct {
	build func() (T, error)
	once  sync.Once
	made  T
	err   error
	ok    bool
}

// get is the fixture, made now if no benchmark asked for it before.
func (s *shared[T]) get(b *testing.B) T {
	b.Helper()
	s.once.Do(func() {
		s.made, s.err = s.build()
		s.ok = s.err == nil
	})
	if s.err != nil {
		b.Fatal(s.err)
	}
	return s.made
}

func (s *shared[T]) close() {
	if s.ok {
		s.made.close()
	}
}

// seeds is the shared seeded instance; seededEnv returns it, building it
// on first use.
var (
	seeds     = &shared[*seeded]{build: buildSeed}
	seededEnv = seeds.get
)

// TestMain runs the package's tests and benchmarks and then removes the
// shared seeded databases, where a benchmark built one.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, s := range []interface{ close() }{seeds, searchSeeds, holdSeeds} {
		s.close()
	}
	os.Exit(code)
}

func (s *seeded) close() {
	s.srv.Close()
	_ = s.db.Close()
	_ = os.RemoveAll(s.dir)
}

// benchClient is a keep-alive client that keeps enough idle connections
// for the concurrent benchmark (the default keeps two per host).
func benchClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 64
	tr.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// openBenchServer opens a fresh database in dir with a bootstrapped
// instance behind an httptest server; the access log is formatted and
// discarded, as a real server would format it.
func openBenchServer(dir string) (*seeded, app.Actor, error) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "bench.db"), store.Options{})
	if err != nil {
		return nil, app.Actor{}, err
	}
	svc := app.New(db, app.Options{Version: "bench"})
	first, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		_ = db.Close()
		return nil, app.Actor{}, err
	}
	admin, err := svc.Authenticate(ctx, first.Token.Secret, "bench")
	if err != nil {
		_ = db.Close()
		return nil, app.Actor{}, err
	}
	srv := httptest.NewServer(webtest.Quiet(svc))
	return &seeded{dir: dir, db: db, svc: svc, srv: srv, client: benchClient(), token: first.Token.Secret}, admin, nil
}

// buildSeed seeds a database through the Service: 50 projects (ten at the
// top, four under each), a second member some work is assigned to, 40
// tags, 100,000 tasks (a fifth of them subtasks; about a third finished;
// 0-3 tags each; some with importance, urgency, due dates, assignees) and
// 20,000 "blocks" links between random tasks of the same project.
//
// Once seeded the server is restarted (the database closed, which
// checkpoints it, and opened again), as after an import, so that every run
// measures the same state of the file. With TEND_BENCH_SEED naming a file,
// the seeded database is kept there and later runs start from a copy of it
// instead of seeding again; delete the file after a migration changes the
// schema. TEND_BENCH_SYNCHRONOUS sets the served database's synchronous
// setting, TEND_BENCH_REPLICA=file replicates it (to a directory beside it,
// at the default interval, the first full copy made before any benchmark
// starts), and benchLimits the read limits.
func buildSeed() (*seeded, error) {
	dir, err := os.MkdirTemp("", "tend-bench-")
	if err != nil {
		return nil, err
	}
	start := time.Now()
	cache := os.Getenv("TEND_BENCH_SEED")
	if _, err := os.Stat(cache); cache == "" || err != nil {
		if err := seedInto(dir); err != nil {
			_ = os.RemoveAll(dir)
			return nil, err
		}
		if cache != "" {
			if err := copyFile(filepath.Join(dir, "bench.db"), cache); err != nil {
				_ = os.RemoveAll(dir)
				return nil, err
			}
		}
	} else if err := copyFile(cache, filepath.Join(dir, "bench.db")); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	s, err := reopenBenchServer(dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	s.took = time.Since(start)
	fmt.Fprintf(os.Stderr, "seeded %d tasks in %d projects with %d blocks links in %s\n",
		seedTasks, seedProjects, seedBlocks, s.took.Round(100*time.Millisecond))
	return s, nil
}

// seedInto seeds a new database in dir and closes it.
func seedInto(dir string) error {
	s, admin, err := openBenchServer(dir)
	if err != nil {
		return err
	}
	err = seedData(context.Background(), s.svc, admin, &s.refs)
	s.srv.Close()
	return errors.Join(err, s.db.Close())
}

// reopenBenchServer serves the seeded database in dir with a new
// administrator token, and reads back every task's ref in creation order.
func reopenBenchServer(dir string) (*seeded, error) {
	ctx := context.Background()
	path := filepath.Join(dir, "bench.db")
	opts := store.Options{Synchronous: os.Getenv("TEND_BENCH_SYNCHRONOUS")}
	if os.Getenv("TEND_BENCH_REPLICA") == "file" {
		opts.Replica = "file://" + filepath.Join(dir, "replica")
	}
	db, err := store.Open(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	if opts.Replica != "" {
		if err := firstReplica(ctx, db, filepath.Join(dir, "replica")); err != nil {
			_ = db.Close()
			return nil, err
		}
	}
	svc := app.New(db, app.Options{Version: "bench", Limits: benchLimits()})
	tok, err := svc.IssueLocalToken(ctx, app.LocalToken{TokenCreate: app.TokenCreate{Title: "bench"}})
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	s := &seeded{dir: dir, db: db, svc: svc, client: benchClient(), token: tok.Secret}
	if s.refs, err = taskRefs(ctx, path); err != nil {
		_ = db.Close()
		return nil, err
	}
	s.srv = httptest.NewServer(webtest.Quiet(svc))
	return s, nil
}

// firstReplica ships the whole database to a new replica and waits until
// Litestream has compacted it into its first level and its first snapshot, as
// it does once after a first start: the benchmarks then measure the steady
// state, not that copy.
func firstReplica(ctx context.Context, db *store.DB, dir string) error {
	if err := db.SyncReplica(ctx); err != nil {
		return err
	}
	for deadline := time.Now().Add(10 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		done := true
		for _, level := range []string{"1", "9"} {
			if files, _ := filepath.Glob(filepath.Join(dir, "ltx", level, "*.ltx")); len(files) == 0 {
				done = false
			}
		}
		if done {
			return nil
		}
	}
	return errors.New("the replica did not get its first snapshot within 10 minutes")
}

// taskRefs reads every task's ref, oldest first, on a connection of its own.
func taskRefs(ctx context.Context, path string) ([]int64, error) {
	conn, err := sql.Open("sqlite", path+"?_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	rows, err := conn.QueryContext(ctx, "SELECT ref FROM tasks ORDER BY ref")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var refs []int64
	for rows.Next() {
		var ref int64
		if err := rows.Scan(&ref); err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, rows.Err()
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	return errors.Join(err, dst.Close())
}

func seedData(ctx context.Context, svc *app.Service, admin app.Actor, refs *[]int64) error {
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := svc.CreateUser(ctx, admin, app.UserCreate{Username: "bob"}); err != nil {
		return err
	}
	if _, err := svc.AddMember(ctx, admin, "default", app.Join{Username: "bob", Role: "member"}); err != nil {
		return err
	}
	var projects []string
	for i := range seedProjects {
		in := app.ProjectCreate{Key: fmt.Sprintf("p%02d", i), Title: fmt.Sprintf("Project %d", i)}
		if i >= 10 {
			in.Parent = fmt.Sprintf("p%02d", (i-10)/4)
		}
		if _, err := svc.CreateProject(ctx, admin, "", in); err != nil {
			return fmt.Errorf("project %s: %w", in.Key, err)
		}
		projects = append(projects, in.Key)
	}
	tags := make([]string, seedTags)
	for i := range tags {
		tags[i] = fmt.Sprintf("tag%02d", i)
	}
	statuses := []string{"todo", "todo", "todo", "todo", "todo", "todo", "in_progress", "done", "done", "cancelled"}
	level := func() *int {
		if rng.IntN(2) == 0 {
			return nil
		}
		v := 1 + rng.IntN(5)
		return &v
	}
	byProject := make([][]int64, len(projects))
	base := time.Now().UTC().Truncate(time.Hour)
	for i := range seedTasks {
		pi := rng.IntN(len(projects))
		in := app.TaskCreate{Title: fmt.Sprintf("Seeded task %d about %s", i, tags[rng.IntN(len(tags))]),
			Status: statuses[rng.IntN(len(statuses))], Importance: level(), Urgency: level()}
		if mine := byProject[pi]; len(mine) > 0 && rng.IntN(5) == 0 {
			// A subtask of a recent task of the same project.
			in.Parent = app.FlexRef(strconv.FormatInt(mine[len(mine)-1-rng.IntN(min(len(mine), 50))], 10))
		} else {
			in.Project = projects[pi]
		}
		for range rng.IntN(4) {
			in.Tags = append(in.Tags, tags[rng.IntN(len(tags))])
		}
		if rng.IntN(10) < 3 {
			due := base.Add(time.Duration(rng.IntN(60*24)-20*24) * time.Hour)
			in.DueAt = &due
		}
		switch rng.IntN(10) {
		case 0:
			in.Assignee = "bob"
		case 1:
			in.Assignee = "me"
		}
		t, err := svc.CreateTask(ctx, admin, "", in)
		if err != nil {
			return fmt.Errorf("task %d: %w", i, err)
		}
		byProject[pi] = append(byProject[pi], t.Ref)
		*refs = append(*refs, t.Ref)
	}
	for made := 0; made < seedBlocks; {
		mine := byProject[rng.IntN(len(byProject))]
		src, dst := mine[rng.IntN(len(mine))], mine[rng.IntN(len(mine))]
		if src == dst {
			continue
		}
		_, err := svc.AddLinks(ctx, admin, "", app.LinkRequest{LinkType: "blocks",
			Target: app.FlexRef(strconv.FormatInt(dst, 10))}.Set("task", strconv.FormatInt(src, 10)))
		if app.CodeOf(err) == app.CodeConflict {
			continue // that pair is linked already
		}
		if err != nil {
			return fmt.Errorf("link %d: %w", made, err)
		}
		made++
	}
	return nil
}

// latencies collects per-request durations and reports percentiles.
type latencies []time.Duration

func (l latencies) pct(p float64) float64 {
	if len(l) == 0 {
		return 0
	}
	s := slices.Clone(l)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p)
	return float64(s[i]) / float64(time.Millisecond)
}

func (l latencies) report(b *testing.B) {
	b.ReportMetric(l.pct(0.50), "p50-ms")
	b.ReportMetric(l.pct(0.99), "p99-ms")
}

// get sends an authenticated GET and answers the body and how long the
// exchange took, from sending the request to reading the last byte of the
// answer; any status but 200 fails the benchmark.
func (s *seeded) get(b *testing.B, path string) ([]byte, time.Duration) {
	req, err := http.NewRequest(http.MethodGet, s.srv.URL+path, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	t0 := time.Now()
	res, err := s.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	took := time.Since(t0)
	res.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
	}
	return body, took
}

// create sends an authenticated POST of body as JSON, fails the benchmark
// unless it answers 201 Created, and decodes the answer into out.
func (s *seeded) create(b *testing.B, path string, body, out any) {
	b.Helper()
	buf, _ := json.Marshal(body)
	req, err := http.NewRequest(http.MethodPost, s.srv.URL+path, bytes.NewReader(buf))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	res, err := s.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(out); err != nil || res.StatusCode != http.StatusCreated {
		b.Fatalf("POST %s: %d %v", path, res.StatusCode, err)
	}
}

// post sends an authenticated POST of body and answers the status, as
// roundTrip does.
func post(client *http.Client, url, token string, body []byte) (int, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	return roundTrip(client, req)
}

// roundTrip sends req and answers the status; the response body is read
// and dropped so the connection is reused.
func roundTrip(client *http.Client, req *http.Request) (int, error) {
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, err
}

// BenchmarkSeededTaskGet is GET /v1/tasks/{ref} for random refs.
func BenchmarkSeededTaskGet(b *testing.B) {
	s := seededEnv(b)
	rng := rand.New(rand.NewPCG(3, 4))
	lat := make(latencies, 0, b.N)
	b.ResetTimer()
	for range b.N {
		ref := s.refs[rng.IntN(len(s.refs))]
		_, took := s.get(b, "/v1/tasks/"+strconv.FormatInt(ref, 10))
		lat = append(lat, took)
	}
	b.StopTimer()
	lat.report(b)
}

type pageAnswer struct {
	Items []json.RawMessage `json:"items"`
	Page  struct {
		HasMore    bool   `json:"has_more"`
		NextCursor string `json:"next_cursor"`
	} `json:"page"`
}

// walkPages reads pages of 50 from query, following next_cursor to the end
// and starting again, and reports the per-page latencies.
func walkPages(b *testing.B, query string) {
	s := seededEnv(b)
	lat := make(latencies, 0, b.N)
	cursor := ""
	b.ResetTimer()
	for range b.N {
		path := "/v1/tasks?" + query
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		body, took := s.get(b, path)
		lat = append(lat, took)
		var page pageAnswer
		if err := json.Unmarshal(body, &page); err != nil {
			b.Fatal(err)
		}
		if len(page.Items) == 0 && page.Page.HasMore {
			b.Fatalf("an empty page says there is more: %s", path)
		}
		cursor = page.Page.NextCursor
	}
	b.StopTimer()
	lat.report(b)
}

// BenchmarkSeededTaskPage is GET /v1/tasks?limit=50 in the default order,
// walking the pages through the cursor.
func BenchmarkSeededTaskPage(b *testing.B) { walkPages(b, "limit=50") }

// BenchmarkSeededTaskReadyToActOn is the agent's question, "what can I
// pick up?": GET /v1/tasks?ready=true&to_act_on=true&limit=50, walked too.
func BenchmarkSeededTaskReadyToActOn(b *testing.B) {
	walkPages(b, "ready=true&to_act_on=true&limit=50")
}

// BenchmarkSeededTaskFieldFilters walks listings narrowed by field
// filters: a due window in relative words with an importance floor, and
// the tasks touched (commented on or moved between statuses) in the last
// week, which probes the comment and event indexes of every candidate row.
func BenchmarkSeededTaskFieldFilters(b *testing.B) {
	b.Run("due_window", func(b *testing.B) { walkPages(b, "due_at.gte=-7d&due_at.lte=%2B7d&importance.gte=3&limit=50") })
	b.Run("touched_week", func(b *testing.B) { walkPages(b, "touched_at.gte=-7d&limit=50") })
}

// createBody is a typical create: a title, a project and two tags.
func createBody(i int) []byte {
	body, _ := json.Marshal(map[string]any{"title": fmt.Sprintf("Benchmark task %d", i), "project": fmt.Sprintf("p%02d", i%seedProjects),
		"tags": []string{"bench", fmt.Sprintf("tag%02d", i%seedTags)}})
	return body
}

// BenchmarkSeededCreateSequential is one client POSTing /v1/tasks, one
// request at a time, into the seeded database.
func BenchmarkSeededCreateSequential(b *testing.B) {
	sequentialCreates(b, seededEnv(b), "/v1/tasks", func(_ *seeded, i int) []byte { return createBody(i) })
}

// BenchmarkSeededCreateWithMentions creates tasks whose description
// mentions two others (issue 4: within 20 % of the sequential rate).
func BenchmarkSeededCreateWithMentions(b *testing.B) {
	sequentialCreates(b, seededEnv(b), "/v1/tasks", mentionBody)
}

// BenchmarkSeededCreateDocumentWithMentions creates documents whose body
// mentions two tasks.
func BenchmarkSeededCreateDocumentWithMentions(b *testing.B) {
	sequentialCreates(b, seededEnv(b), "/v1/documents", documentBody)
}

// BenchmarkSeededCreateConcurrent8 is eight clients POSTing /v1/tasks at
// once into the seeded database; every request must succeed.
func BenchmarkSeededCreateConcurrent8(b *testing.B) {
	const writers = 8
	s := seededEnv(b)
	bodies := make([][]byte, b.N)
	for i := range bodies {
		bodies[i] = createBody(i)
	}
	var next, failed atomic.Int64
	var firstErr atomic.Value
	lats := make([]latencies, writers)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= b.N {
					return
				}
				t0 := time.Now()
				status, err := post(s.client, s.srv.URL+"/v1/tasks", s.token, bodies[i])
				lats[w] = append(lats[w], time.Since(t0))
				if err != nil || status != http.StatusCreated {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, fmt.Sprintf("create %d: %d %v", i, status, err))
				}
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/took.Seconds(), "creates/s")
	b.ReportMetric(float64(failed.Load()), "errors")
	slices.Concat(lats...).report(b)
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d of %d creates failed; first: %v", n, b.N, firstErr.Load())
	}
}
