package web_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
	"tend/web"
	"tend/web/passkeys"
	"tend/web/webtest"
)

// standbyPrimaryURL is the primary's address every standby of these tests
// names in its refusals.
const standbyPrimaryURL = "https://primary.example.ts.net"

// standbyPair is a primary replicating to a replica on disk and a standby
// following that replica (tend serve --follow), each behind the real
// router.
type standbyPair struct {
	primary, standby *env
	pdb, sdb         *store.DB
	standbyPath      string
}

// newStandbyPair starts a primary on a first start's copy and a standby of
// it. The standby's service may promote it (app.Options.Promote), as tend
// serve's does.
func newStandbyPair(t *testing.T) *standbyPair {
	t.Helper()
	dir := t.TempDir()
	replica := "file://" + filepath.Join(dir, "replica")
	ppath, spath := filepath.Join(dir, "primary.db"), filepath.Join(dir, "standby.db")
	admin := webtest.CopyBootstrapped(t, ppath)
	pdb := openStandbyStore(t, ppath, store.Options{Replica: replica, ReplicaSyncInterval: 10 * time.Millisecond})
	if err := pdb.SyncReplica(context.Background()); err != nil {
		t.Fatal(err)
	}
	sdb := openStandbyStore(t, spath, store.Options{Follow: replica, FollowInterval: 10 * time.Millisecond, PrimaryURL: standbyPrimaryURL})
	clock := &storetest.Clock{}
	clock.Set(storetest.Epoch)
	// The standby's clock runs two minutes ahead of the primary's, so that
	// every credential and session it reads is due the stamp a primary
	// would write on use: the stamps it must skip.
	pdb.Now = clock.Now
	sdb.Now = func() time.Time { return clock.Now().Add(2 * time.Minute) }
	p := &standbyPair{pdb: pdb, sdb: sdb, standbyPath: spath,
		primary: &env{webtest.Around(t, pdb, clock, app.New(pdb, storetest.Options(app.Options{Version: "test", Passkeys: passkeys.Ceremonies{}})), admin)},
		standby: &env{webtest.Around(t, sdb, clock, app.New(sdb, storetest.Options(app.Options{Version: "test", Promote: sdb.Promote, Passkeys: passkeys.Ceremonies{}})), admin)}}
	p.standby.Handler().SetFollow(p.followStatus, time.Minute)
	p.catchUp(t)
	return p
}

// followStatus is the standby's lag as tend serve reports it.
func (p *standbyPair) followStatus() (web.FollowStatus, bool) {
	l := p.sdb.FollowLag()
	return web.FollowStatus{AppliedTXID: l.AppliedTXID, ReplicaTXID: l.ReplicaTXID, Transactions: l.Transactions,
		Behind: l.Behind, LastApplied: l.LastApplied, Err: l.Err}, l.Following
}

// appliedSince reports whether the standby applied a transaction past
// txid, waiting a moment for the count to catch up with a commit.
func (p *standbyPair) appliedSince(txid uint64) bool {
	for range 20 {
		if p.sdb.FollowLag().AppliedTXID != txid {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func openStandbyStore(t *testing.T, path string, opts store.Options) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// catchUp writes a mark on the primary (a project of its own) and waits
// until the standby serves it: then the standby holds every write the
// primary acknowledged before. It waits on the standby, never on a
// clock; the bound only ends a test that would otherwise hang.
func (p *standbyPair) catchUp(t *testing.T) {
	t.Helper()
	// The primary's worker finishes what the writes queued first, so that
	// nothing is applied on the standby after this returns.
	if err := p.primary.Svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	key := fmt.Sprintf("mark%d", time.Now().UnixNano()%1e9)
	p.primary.OK(http.StatusCreated, http.MethodPost, "/v1/projects?workspace_id=default", p.primary.Admin, map[string]any{"key": key, "title": key})
	deadline := time.Now().Add(time.Minute)
	for p.standby.Do(http.MethodGet, "/v1/projects/"+key+"?workspace_id=default", p.standby.Admin, nil).Status != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatalf("the standby did not apply the primary's write within a minute: %+v", p.sdb.FollowLag())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// pageSum is the digest of every page of the database at path as SQLite
// reads it, through a connection of its own: what any write, however
// small, changes, and a checkpoint (which moves pages from the log into
// the file unchanged) does not.
func pageSum(t *testing.T, path string) string {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query("SELECT data FROM sqlite_dbpage ORDER BY pgno")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	h := sha256.New()
	for rows.Next() {
		var page []byte
		if err := rows.Scan(&page); err != nil {
			t.Fatal(err)
		}
		h.Write(page)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestStandbyServesEveryRead: every GET of the route goldens, sent to a
// standby as the goldens send it to their primary (in the same order,
// once the standby has applied what the calls before it wrote), answers
// as the primary did, never with a 500 or 503, and without writing to the
// standby's file: a session's sliding expiry, a credential's last use, a
// feed's last poll and indexing for a search are all skipped there.
func TestStandbyServesEveryRead(t *testing.T) {
	t.Parallel()
	p := newStandbyPair(t)
	p.primary.Handler().ServeMetrics(web.NewMetrics(slog.New(slog.DiscardHandler), "test"))
	p.standby.Handler().ServeMetrics(web.NewMetrics(slog.New(slog.DiscardHandler), "test"))
	vals := routeSeed(p.primary)
	fill := filler(vals)
	for _, c := range routeCalls {
		if c.prep != nil {
			c.prep(p.primary, vals)
		}
		want := routeSend(p.primary, c, fill, vals["session"])
		if c.save != "" && want.Status < 400 {
			vals[c.save] = savedID(t, want)
		}
		if !strings.HasPrefix(c.route, "GET ") {
			continue
		}
		p.catchUp(t)
		applied := p.sdb.FollowLag().AppliedTXID
		before := pageSum(t, p.standbyPath)
		got := routeSend(p.standby, c, fill, vals["session"])
		if got.Status != want.Status || got.Status >= 500 {
			t.Errorf("%s (%s): the standby answered %d where the primary answered %d\n%s", c.route, fill(c.path), got.Status, want.Status, got.Body)
		}
		// A change the follower applied meanwhile (a step of the primary's
		// that came after the mark) shows in its count, which it moves just
		// after the commit: only a change it did not make is the read's.
		if after := pageSum(t, p.standbyPath); after != before && !p.appliedSince(applied) {
			t.Errorf("%s (%s) wrote to the standby's database (applied transaction %d, then %d)", c.route, fill(c.path), applied, p.sdb.FollowLag().AppliedTXID)
		}
	}
	assertNoInternalErrors(t, p.standby)
}

// TestStandbyRefusesWrites: on a standby, a write answers 503 read_only
// naming the primary, through every surface: the API, a page's form, an
// MCP tool, CalDAV and a sign-in.
func TestStandbyRefusesWrites(t *testing.T) {
	t.Parallel()
	p := newStandbyPair(t)
	e := p.standby
	session := p.primary.SignIn(p.primary.MintLink(p.primary.Admin, nil)).Value
	link := p.primary.MintLink(p.primary.Admin, nil)
	p.primary.tskProject("ops", "")
	p.catchUp(t)

	t.Run("api", func(t *testing.T) {
		for _, w := range []struct {
			method, path string
			body         any
		}{
			{http.MethodPost, "/v1/tasks", map[string]any{"title": "Refused"}},
			{http.MethodPatch, "/v1/instance", map[string]any{"name": "Refused"}},
			{http.MethodPost, "/v1/projects", map[string]any{"key": "refused", "title": "Refused"}},
			{http.MethodDelete, "/v1/session", nil},
		} {
			r := e.On(t).Do(w.method, w.path, e.Admin, w.body)
			if w.path == "/v1/session" {
				req := e.Request(w.method, w.path, nil)
				req.AddCookie(&http.Cookie{Name: "tend_session", Value: session})
				req.Header.Set("Origin", e.Srv.URL)
				r = e.On(t).Exchange(req)
			}
			m := r.JSON(t)
			if r.Status != http.StatusServiceUnavailable || m["code"] != string(app.CodeReadOnly) || !strings.Contains(fmt.Sprint(m["detail"]), standbyPrimaryURL) {
				t.Errorf("%s %s on the standby: %d %v, want 503 read_only naming %s", w.method, w.path, r.Status, m, standbyPrimaryURL)
			}
		}
	})
	t.Run("page", func(t *testing.T) {
		home := e.On(t).Browser(http.MethodGet, "/", session, "", nil)
		if home.Status != http.StatusOK || !strings.Contains(string(home.Body), `id="standby"`) || !strings.Contains(string(home.Body), standbyPrimaryURL) {
			t.Errorf("a standby's page: %d, want the banner naming the primary\n%s", home.Status, home.Body)
		}
		r := e.On(t).Browser(http.MethodPost, "/tasks", session, e.Srv.URL, url.Values{"text": {"Refused"}})
		if r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Body), string(app.CodeReadOnly)) || !strings.Contains(string(r.Body), standbyPrimaryURL) {
			t.Errorf("a form posted to a standby: %d, want the read_only page naming the primary\n%s", r.Status, r.Body)
		}
	})
	t.Run("signin", func(t *testing.T) {
		page := e.On(t).Browser(http.MethodGet, "/signin?link="+link, "", "", nil)
		if page.Status != http.StatusOK || !strings.Contains(string(page.Body), "sign in on the primary") {
			t.Errorf("the sign-in page of a standby: %d, want it to say where to sign in\n%s", page.Status, page.Body)
		}
		r := e.On(t).Browser(http.MethodPost, "/signin", "", e.Srv.URL, url.Values{"link": {link}})
		if r.Status != http.StatusServiceUnavailable || !strings.Contains(string(r.Body), string(app.CodeReadOnly)) {
			t.Errorf("signing in on a standby: %d, want 503 read_only\n%s", r.Status, r.Body)
		}
	})
	t.Run("mcp", func(t *testing.T) {
		m := e.Connect(t, e.Admin, webtest.EraStateless)
		if text := m.Refused(string(app.CodeReadOnly), "service_add", map[string]any{"text": "Refused"}); !strings.Contains(text, standbyPrimaryURL) {
			t.Errorf("an MCP write on a standby: %q, want it to name the primary", text)
		}
		m.OK("service_whoami", nil)
	})
	t.Run("caldav", func(t *testing.T) {
		ws := e.On(t).OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)["workspaces"].([]any)[0].(map[string]any)["slug"].(string)
		body := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:refused-1\r\nSUMMARY:Refused\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
		// CalDAV is not in the OpenAPI document webtest checks answers against.
		srv := webtest.Serve(t, e.Svc)
		req, err := http.NewRequest(http.MethodPut, srv.URL+"/dav/calendars/"+ws+".ops/refused-1.ics", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "text/calendar")
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("admin:"+e.Admin)))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), string(app.CodeReadOnly)) || !strings.Contains(string(b), standbyPrimaryURL) {
			t.Errorf("a CalDAV PUT on a standby: %d, want 503 naming the primary\n%s", res.StatusCode, b)
		}
	})
}

// TestStandbyReadiness: a standby's /readyz carries its lag and applied
// transaction; /metrics carries the same as tend_follow_*.
func TestStandbyReadiness(t *testing.T) {
	t.Parallel()
	p := newStandbyPair(t)
	e := p.standby
	r := e.Do(http.MethodGet, "/readyz", "", nil)
	m := r.JSON(t)
	f, _ := m["follow"].(map[string]any)
	if r.Status != http.StatusOK || f == nil || f["state"] != "ok" || f["applied_txid"].(float64) < 1 {
		t.Errorf("a standby caught up: /readyz %d %v, want ready with the follow detail", r.Status, m)
	}
	metrics := web.NewMetrics(slog.New(slog.DiscardHandler), "test")
	metrics.Watch(web.MetricsSources{Follow: p.followStatus})
	e.Handler().ServeMetrics(metrics)
	body := string(e.Do(http.MethodGet, "/metrics", e.Admin, nil).Body)
	for _, name := range []string{"tend_follow_lag_seconds", "tend_follow_lag_transactions", "tend_follow_applied_txid"} {
		if !strings.Contains(body, "\n"+name+" ") {
			t.Errorf("/metrics of a standby has no %s", name)
		}
	}
}

// TestStandbyPromote: promotion is an instance administrator's, refused
// on a primary with not_standby, and turns the standby into a server
// that takes writes, in the same process.
func TestStandbyPromote(t *testing.T) {
	t.Parallel()
	p := newStandbyPair(t)
	member := p.primary.Member("ann", "member")
	p.catchUp(t)
	e := p.standby

	r := e.Do(http.MethodPost, "/v1/admin/promote", member, nil)
	if m := r.JSON(t); r.Status != http.StatusForbidden || m["code"] != string(app.CodeForbidden) {
		t.Errorf("a member promoting: %d %v, want 403 forbidden", r.Status, m)
	}
	r = p.primary.Do(http.MethodPost, "/v1/admin/promote", p.primary.Admin, nil)
	if m := r.JSON(t); r.Status != http.StatusConflict || m["code"] != string(app.CodeNotStandby) {
		t.Errorf("promoting a primary: %d %v, want 409 not_standby", r.Status, m)
	}
	if err := p.pdb.Close(); err != nil { // the primary is gone: its replica stays
		t.Fatal(err)
	}
	r = e.Do(http.MethodPost, "/v1/admin/promote", e.Admin, nil)
	if m := r.JSON(t); r.Status != http.StatusOK || m["promoted"] != true {
		t.Fatalf("promoting the standby: %d %v", r.Status, m)
	}
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "After the failover"})
	if m := e.Do(http.MethodGet, "/readyz", "", nil).JSON(t); m["follow"] != nil || m["status"] != "ready" {
		t.Errorf("/readyz of the promoted standby: %v, want ready and no follow detail", m)
	}
	r = e.Do(http.MethodPost, "/v1/admin/promote", e.Admin, nil)
	if m := r.JSON(t); r.Status != http.StatusConflict || m["code"] != string(app.CodeNotStandby) {
		t.Errorf("promoting twice: %d %v, want 409 not_standby", r.Status, m)
	}
}
