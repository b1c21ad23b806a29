package web_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/internal/golden"
	"tend/store/storetest"
	"tend/web/webtest"
	"tend/web/wire"
)

// seedAll fills e's instance with one of everything a workspace holds, the
// awkward cases included: a second workspace whose rows interleave with
// the first's, a repeating task with occurrences, a subtask moved under a
// task written after it, an agent handed over to a person created after
// it, a private project, trashed and completed work, a claimed task,
// document revisions, comments (one edited, one withdrawn), mentions,
// links of a custom type, verifications, settings, a calendar feed. It
// returns the refs of the default workspace's items.
func seedAll(e *env) []int {
	t := e.T
	t.Helper()
	ok := func(status int, method, path string, body any) map[string]any {
		t.Helper()
		return e.OK(status, method, inDefault(path), e.Admin, body)
	}
	ok(http.StatusCreated, "POST", "/v1/users", map[string]any{"username": "robot", "is_service_account": true, "answers_to": "admin"})
	ok(http.StatusCreated, "POST", "/v1/users", map[string]any{"username": "alice", "display_name": "Alice A.", "email": "alice@example.com", "timezone": "Europe/Paris"})
	ok(http.StatusOK, "PATCH", "/v1/users/robot", map[string]any{"answers_to": "alice"})
	ok(http.StatusCreated, "POST", "/v1/users", map[string]any{"username": "bob"})
	for _, m := range [][2]string{{"alice", "admin"}, {"bob", "member"}, {"robot", "member"}} {
		ok(http.StatusCreated, "POST", "/v1/workspaces/default/members", map[string]any{"username": m[0], "role": m[1]})
	}
	ok(http.StatusCreated, "POST", "/v1/workspaces", map[string]any{"slug": "side", "name": "Side ✨", "timezone": "America/New_York"})
	ok(http.StatusOK, "PATCH", "/v1/workspaces/default", map[string]any{"settings": map[string]any{"week_start": "sunday", "claim_minutes": 45}})
	ok(http.StatusCreated, "POST", "/v1/statuses", map[string]any{"key": "review", "label": "In review", "category": "in_progress", "entity_type": "task"})
	ok(http.StatusCreated, "POST", "/v1/link-types", map[string]any{"key": "informs", "title": "informs", "inverse_title": "is informed by", "category": "association"})
	ok(http.StatusCreated, "POST", "/v1/tags", map[string]any{"name": "urgent", "description": "drop everything"})
	ok(http.StatusCreated, "POST", "/v1/projects", map[string]any{"key": "web", "title": "Web site", "description": "the \"public\" one, with commas, and ünïcödé"})
	ok(http.StatusCreated, "POST", "/v1/projects", map[string]any{"key": "api", "title": "API", "parent": "web", "settings": map[string]any{"tree_depth": 3}})
	ok(http.StatusCreated, "POST", "/v1/projects", map[string]any{"key": "secret", "title": "Secret plans", "visibility": "private"})
	ok(http.StatusCreated, "POST", "/v1/projects/secret/members", map[string]any{"username": "bob"})
	ok(http.StatusOK, "PUT", "/v1/projects/api/roles/bob", map[string]any{"role": "viewer"})
	ok(http.StatusCreated, "POST", "/v1/projects", map[string]any{"key": "old", "title": "Old"})

	var refs []int
	task := func(body map[string]any) int {
		t.Helper()
		r := int(ok(http.StatusCreated, "POST", "/v1/tasks", body)["ref"].(float64))
		refs = append(refs, r)
		return r
	}
	e.Clock.Advance(time.Minute)
	water := task(map[string]any{"text": "water the plants every monday #home"})
	child := task(map[string]any{"title": "buy a can", "project": "web", "tags": []string{"urgent", "home"}, "importance": 4, "urgency": 2,
		"estimate_minutes": 30, "assignee": "alice", "description": "tabs\tand\nnewlines, \"quotes\" and 😀"})
	ok(http.StatusCreated, "POST", "/v1/tasks?workspace_id=side", map[string]any{"title": "on the side"})
	parent := task(map[string]any{"title": "garden", "project": "api", "due_at": "2026-03-10T17:30:00Z", "starts_at": "2026-03-05T00:00:00Z", "timezone": "Europe/Paris"})
	ok(http.StatusOK, "POST", fmt.Sprintf("/v1/tasks/%d/move", child), map[string]any{"parent": parent})
	e.Clock.Advance(time.Hour)
	ok(http.StatusOK, "POST", fmt.Sprintf("/v1/tasks/%d/complete", water), map[string]any{})
	refs = append(refs, water+3)
	ok(http.StatusOK, "POST", fmt.Sprintf("/v1/tasks/%d/claim", parent), map[string]any{})
	ok(http.StatusCreated, "POST", fmt.Sprintf("/v1/tasks/%d/verifications", parent), map[string]any{"passed": true, "summary": "go test ./...", "commit_sha": "abc123"})
	hidden := task(map[string]any{"title": "the covert scheme", "project": "secret"})
	gone := task(map[string]any{"title": "never mind", "project": "old"})
	ok(http.StatusOK, "DELETE", fmt.Sprintf("/v1/tasks/%d", gone), nil)
	ok(http.StatusOK, "DELETE", "/v1/projects/old", nil)
	ok(http.StatusCreated, "POST", "/v1/tasks?workspace_id=side", map[string]any{"title": "still on the side"})
	ok(http.StatusOK, "PATCH", fmt.Sprintf("/v1/tasks/%d", parent), map[string]any{"status": "review", "snoozed_until": "2026-03-04T00:00:00Z", "snoozed_is_all_day": true})

	doc := int(ok(http.StatusCreated, "POST", "/v1/documents", map[string]any{"title": "Plan", "body": "first draft", "project": "web", "tags": []string{"urgent"}})["ref"].(float64))
	refs = append(refs, doc)
	e.Clock.Advance(time.Minute)
	ok(http.StatusOK, "PATCH", fmt.Sprintf("/v1/documents/%d", doc), map[string]any{"body": fmt.Sprintf("second draft; see #%d", parent)})
	sub := int(ok(http.StatusCreated, "POST", "/v1/documents", map[string]any{"title": "Appendix", "parent": doc, "type": "decision"})["ref"].(float64))
	refs = append(refs, sub)
	c := ok(http.StatusCreated, "POST", fmt.Sprintf("/v1/tasks/%d/comments", parent), map[string]any{"body": fmt.Sprintf("blocked on #%d", child)})
	ok(http.StatusOK, "PATCH", "/v1/comments/"+c["id"].(string), map[string]any{"body": fmt.Sprintf("blocked on #%d, really", child)})
	w := ok(http.StatusCreated, "POST", fmt.Sprintf("/v1/documents/%d/comments", doc), map[string]any{"body": "withdrawn"})
	ok(http.StatusNoContent, "DELETE", "/v1/comments/"+w["id"].(string), nil)
	ok(http.StatusCreated, "POST", "/v1/projects/web/comments", map[string]any{"body": "a note on the project"})
	ok(http.StatusCreated, "POST", fmt.Sprintf("/v1/tasks/%d/links", child), map[string]any{"link_type": "blocks", "target": parent})
	ok(http.StatusCreated, "POST", fmt.Sprintf("/v1/documents/%d/links", doc), map[string]any{"link_type": "informs", "target": parent})
	ok(http.StatusCreated, "POST", fmt.Sprintf("/v1/tasks/%d/links", hidden), map[string]any{"link_type": "relates_to", "target": parent})
	ok(http.StatusCreated, "POST", "/v1/calendars", map[string]any{"title": "my work", "audience": "me", "project": "web"})
	admin, err := e.Svc.Authenticate(context.Background(), e.Admin, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, into := range []string{"web", "secret"} {
		m := app.Migration{Source: "github", Projects: []app.MigratedProject{{ExternalID: "acme/" + into, Title: into,
			Tasks: []app.MigratedTask{{ExternalID: "acme/" + into + "#1", Title: "imported into " + into,
				Comments: []app.MigratedComment{{ExternalID: "c1", Author: "@octocat", Body: "from GitHub"}}}}}}}
		if _, err := e.Svc.Migrate(context.Background(), admin, m, app.MigrateOptions{Workspace: "default", Project: into}); err != nil {
			t.Fatal(err)
		}
	}
	return refs
}

// inDefault names the default workspace in path, unless it names one or
// is about something outside workspaces.
func inDefault(path string) string {
	if strings.Contains(path, "workspace_id=") || strings.HasPrefix(path, "/v1/users") || strings.HasPrefix(path, "/v1/workspaces") ||
		strings.HasPrefix(path, "/v1/instance") {
		return path
	}
	if strings.Contains(path, "?") {
		return path + "&workspace_id=default"
	}
	return path + "?workspace_id=default"
}

// imported imports export into a database no tend serve set up, on a clock
// at from's instant, and serves it as from is served, with a credential for
// its administrator.
func imported(t *testing.T, from *env, export []byte) (*env, app.ImportReport) {
	t.Helper()
	db, clock := storetest.OpenClock(t)
	clock.Set(from.Clock.Now())
	svc := app.New(db, app.Options{Version: "test"})
	rep, err := svc.Import(context.Background(), app.SystemActor("cli"), wire.NewExportDecoder(bytes.NewReader(export)), false)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	tok, err := svc.IssueLocalToken(context.Background(), app.LocalToken{TokenCreate: app.TokenCreate{Username: "admin"}})
	if err != nil {
		t.Fatal(err)
	}
	return &env{webtest.Around(t, db, clock, svc, tok.Secret)}, rep
}

// export reads GET /v1/export with token, which must answer 200.
func (e *env) export(token, query string) []byte {
	e.T.Helper()
	r := e.Do(http.MethodGet, "/v1/export"+query, token, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != wire.ExportMediaType {
		e.T.Fatalf("GET /v1/export%s: %d %s\n%s", query, r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	return r.Body
}

// exportAll is the command line's export of every workspace.
func (e *env) exportAll() []byte {
	e.T.Helper()
	var b bytes.Buffer
	if err := e.Svc.Export(context.Background(), app.SystemActor("cli"), "", wire.NewExportEncoder(&b, nil)); err != nil {
		e.T.Fatal(err)
	}
	return b.Bytes()
}

// TestExportRoundTrip exports a full instance, imports it into an empty
// one and exports that: the two files must be identical, byte for byte,
// and the two instances must answer every read of a sample alike.
func TestExportRoundTrip(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	refs := seedAll(a)
	first := a.exportAll()
	b, rep := imported(t, a, first)
	if !rep.InstanceCreated || rep.NewIDs || len(rep.Workspaces) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if second := b.exportAll(); !bytes.Equal(first, second) {
		t.Fatalf("the export of the import differs from the export:\n%s", golden.Diffs(string(first), string(second), 6))
	}
	if one, two := a.export(a.Admin, "?workspace_id=default"), b.export(b.Admin, "?workspace_id=default"); !bytes.Equal(one, two) {
		t.Fatalf("GET /v1/export differs:\n%s", golden.Diffs(string(one), string(two), 6))
	}

	reads := []string{"/v1/tasks", "/v1/tasks?include_total=true&order=-due_at", "/v1/tasks?workspace_id=side", "/v1/documents",
		"/v1/projects", "/v1/projects?deleted=true", "/v1/projects/web", "/v1/projects/api/members", "/v1/projects/secret/members",
		"/v1/projects/web/comments", "/v1/projects/web/events", "/v1/projects/api/settings", "/v1/workspaces/default/settings",
		"/v1/workspaces/default/members", "/v1/workspaces", "/v1/statuses", "/v1/link-types", "/v1/tags", "/v1/users", "/v1/users/robot",
		"/v1/calendars", "/v1/changes", "/v1/changes?workspace_id=side", "/v1/journal", "/v1/agenda?date=2026-03-04", "/v1/instance",
		"/v1/tasks?status=review&fields=ref,title,status"}
	for _, r := range refs {
		for _, p := range []string{"", "/events", "/comments", "/links", "/backlinks", "/verifications", "/tree", "/occurrences"} {
			reads = append(reads, fmt.Sprintf("/v1/tasks/%d%s", r, p), fmt.Sprintf("/v1/documents/%d%s", r, p))
		}
	}
	answered := 0
	for _, path := range reads {
		path = inDefault(path)
		one, two := a.Do(http.MethodGet, path, a.Admin, nil), b.Do(http.MethodGet, path, b.Admin, nil)
		if one.Status != two.Status || !bytes.Equal(one.Body, two.Body) {
			t.Errorf("GET %s answers differently after the round trip:\n%d %s\n%d %s", path, one.Status, one.Body, two.Status, two.Body)
		}
		if one.Status == http.StatusOK {
			answered++
		}
	}
	if answered < 60 {
		t.Errorf("only %d of %d reads answered 200: the sample is too thin", answered, len(reads))
	}
}

// TestExportHoldsNoSecret: no credential, session, sign-in link or feed
// secret reaches an export, nor the hash of any of them, nor a record of
// the tables that hold them.
func TestExportHoldsNoSecret(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seedAll(e)
	tok := e.Issue(e.Admin, map[string]any{"title": "laptop"})["token"].(string)
	link := e.MintLink(e.Admin, map[string]any{"username": "admin"})
	session := e.SignIn(e.MintLink(e.Admin, map[string]any{"username": "admin"})).Value
	feed := e.OK(http.StatusCreated, http.MethodPost, "/v1/calendars?workspace_id=default", tok, map[string]any{"title": "all", "audience": "workspace"})["url"].(string)
	feedSecret := strings.TrimSuffix(feed[strings.LastIndex(feed, "/")+1:], ".ics")
	e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?workspace_id=default", tok, nil) // a credential's use is recorded too
	secrets := map[string]string{"administrator token": e.Admin, "issued token": tok, "sign-in link": link, "session": session, "feed secret": feedSecret}
	for name, file := range map[string][]byte{"GET /v1/export": e.export(e.Admin, "?workspace_id=default"), "tend export": e.exportAll()} {
		for what, s := range secrets {
			sum := sha256.Sum256([]byte(s))
			for form, v := range map[string]string{"itself": s, "its hash in hex": hex.EncodeToString(sum[:]),
				"its hash in base64": base64.StdEncoding.EncodeToString(sum[:]), "the part after its prefix": s[strings.IndexByte(s[5:], '_')+6:]} {
				if bytes.Contains(file, []byte(v)) {
					t.Errorf("%s holds the %s (%s)", name, what, form)
				}
			}
		}
		for _, l := range bytes.Split(bytes.TrimSpace(file), []byte("\n")) {
			for _, kind := range []string{"token", "session", "login_link"} {
				if bytes.HasPrefix(l, []byte(`{"kind":"`+kind+`"`)) {
					t.Errorf("%s holds a %s record: %s", name, kind, l)
				}
			}
			if bytes.Contains(l, []byte(`"hash":`)) {
				t.Errorf("%s holds a hash: %s", name, l)
			}
		}
	}
}

// TestExportLeavesOutWhatTheExporterCannotSee: a workspace admin who is
// not a member of a private project exports the workspace without it, as if
// it did not exist: no record names the project or anything filed in it,
// and the file still imports whole.
func TestExportLeavesOutWhatTheExporterCannotSee(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seedAll(e)
	alice := e.Issue(e.Admin, map[string]any{"username": "alice"})["token"].(string)
	secret := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/secret?workspace_id=default", e.Admin, nil)
	plan := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?workspace_id=default&project=secret", e.Admin, nil)
	hidden := []string{secret["id"].(string), "Secret plans", "the covert scheme", "imported into secret", "acme/secret"}
	for _, it := range lstItems(plan) {
		hidden = append(hidden, it["id"].(string))
	}
	if len(hidden) != 7 {
		t.Fatalf("the private project holds %d tasks, want 2", len(hidden)-5)
	}
	if !bytes.Contains(e.export(alice, ""), []byte("acme/web#1")) {
		t.Error("alice's export lacks the external id of an item she can see")
	}
	mine := e.export(alice, "")
	for _, h := range hidden {
		if bytes.Contains(mine, []byte(h)) {
			t.Errorf("alice's export names %q, which she cannot see", h)
		}
	}
	if all := e.export(e.Admin, "?workspace_id=default"); !bytes.Contains(all, []byte("Secret plans")) {
		t.Error("the instance administrator's export lacks the private project")
	}
	if bytes.Contains(mine, []byte("alice@example.com")) {
		t.Error("a workspace admin's export carries email addresses")
	}
	b, _ := imported(t, e, mine)
	got := b.OK(http.StatusOK, http.MethodGet, "/v1/projects?workspace_id=default", b.Admin, nil)
	for _, p := range lstItems(got) {
		if p["key"] == "secret" {
			t.Error("the private project came through")
		}
	}
}

// TestExportRefusals: each refusal of GET /v1/export with its status and code.
func TestExportRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seedAll(e)
	bob := e.Issue(e.Admin, map[string]any{"username": "bob"})["token"].(string)
	alice := e.Issue(e.Admin, map[string]any{"username": "alice"})["token"].(string)
	narrowScopes := e.Issue(alice, map[string]any{"scopes": []string{"workspace:read", "project:read", "item:read"}})["token"].(string)
	narrowProjects := e.Issue(alice, map[string]any{"project_scope": []string{"web"}})["token"].(string)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/side/members", e.Admin, map[string]any{"username": "alice", "role": "member"})
	for _, tc := range []struct {
		name, token, query string
		status             int
		code               string
	}{
		{"no credential", "", "?workspace_id=default", http.StatusUnauthorized, "unauthorized"},
		{"a member, not an admin", bob, "?workspace_id=default", http.StatusForbidden, "forbidden"},
		{"an admin's credential narrowed to reading", narrowScopes, "?workspace_id=default", http.StatusForbidden, "credential_narrowed"},
		{"an admin's credential narrowed to a project", narrowProjects, "?workspace_id=default", http.StatusForbidden, "credential_narrowed"},
		{"a workspace the caller is not in", bob, "?workspace_id=nowhere", http.StatusNotFound, "not_found"},
		{"a workspace that is not there", e.Admin, "?workspace_id=nowhere", http.StatusNotFound, "not_found"},
		{"several workspaces and none named", alice, "", http.StatusUnprocessableEntity, "workspace_required"},
		{"a credential in the query", "", "?workspace_id=default&token=" + e.Admin, http.StatusBadRequest, "secret_in_query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.On(t).Problem(tc.status, tc.code, http.MethodGet, "/v1/export"+tc.query, tc.token, nil)
		})
	}
	t.Run("another method", func(t *testing.T) {
		e.On(t).Problem(http.StatusMethodNotAllowed, "method_not_allowed", http.MethodPost, "/v1/export", e.Admin, nil)
	})
	t.Run("not through service_call_api", func(t *testing.T) {
		// An export is a download, not an answer for an agent to read.
		m := e.Connect(t, e.Admin, webtest.EraHandshake)
		m.Refused("not_found", "service_call_api", map[string]any{"method": "GET", "path": "/v1/export"})
	})
}

// TestImportIntoInstanceInUse: an export imported into an instance that is
// in use becomes new workspaces beside the ones there, its accounts matched
// by username; imported back into the very instance it came from, as a
// copy with new ids, and the copy answers as the original does.
func TestImportIntoInstanceInUse(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	refs := seedAll(a)
	file := a.exportAll()

	other := elsewhere(t)
	other.OK(http.StatusCreated, http.MethodPost, "/v1/users", other.Admin, map[string]any{"username": "alice"})
	rep, err := other.Svc.Import(context.Background(), app.SystemActor("cli"), wire.NewExportDecoder(bytes.NewReader(file)), false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.InstanceCreated || rep.NewIDs {
		t.Errorf("report %+v", rep)
	}
	wantWS := []app.ImportedWorkspace{{Slug: "default-2", FileSlug: "default"}, {Slug: "side", FileSlug: "side"}}
	if fmt.Sprint(rep.Workspaces) != fmt.Sprint(wantWS) {
		t.Errorf("workspaces %+v, want %+v", rep.Workspaces, wantWS)
	}
	outcome := map[string]string{}
	for _, u := range rep.Users {
		outcome[u.Username] = u.Outcome
	}
	wantUsers := map[string]string{"admin": app.UserMatched, "alice": app.UserMatched, "bob": app.UserCreated, "robot": app.UserCreated}
	if fmt.Sprint(outcome) != fmt.Sprint(wantUsers) {
		t.Errorf("accounts %v, want %v", outcome, wantUsers)
	}
	robot := other.OK(http.StatusOK, http.MethodGet, "/v1/users/robot", other.Admin, nil)
	if robot["answers_to"] != "alice" {
		t.Errorf("robot answers to %v, want the alice already here", robot["answers_to"])
	}

	copyRep, err := a.Svc.Import(context.Background(), app.SystemActor("cli"), wire.NewExportDecoder(bytes.NewReader(file)), false)
	if err != nil {
		t.Fatal(err)
	}
	if !copyRep.NewIDs || copyRep.Workspaces[0].Slug != "default-2" || copyRep.Workspaces[1].Slug != "side-2" {
		t.Fatalf("report %+v", copyRep)
	}
	for _, r := range refs {
		for _, p := range []string{"", "/links", "/comments", "/backlinks"} {
			for _, kind := range []string{"tasks", "documents"} {
				path := fmt.Sprintf("/v1/%s/%d%s", kind, r, p)
				one := a.Do(http.MethodGet, path+"?workspace_id=default", a.Admin, nil)
				two := a.Do(http.MethodGet, path+"?workspace_id=default-2", a.Admin, nil)
				if one.Status != two.Status || idsOut(one.Body) != idsOut(two.Body) {
					t.Errorf("GET %s: the copy answers differently:\n%d %s\n%d %s", path, one.Status, one.Body, two.Status, two.Body)
				}
			}
		}
	}
}

// elsewhere is an instance of its own, set up by its first start: not a
// copy of the one newEnv copies, whose ids every test's instance shares.
func elsewhere(t *testing.T) *env {
	t.Helper()
	db, clock := storetest.OpenClock(t)
	svc := app.New(db, app.Options{Version: "test"})
	first, err := svc.Bootstrap(context.Background(), app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	return &env{webtest.Around(t, db, clock, svc, first.Token.Secret)}
}

// idsOut blanks every id and workspace slug of a copy, which differ by design.
func idsOut(body []byte) string {
	s := uuidRE.ReplaceAllString(string(body), "<id>")
	return strings.ReplaceAll(s, `"default-2"`, `"default"`)
}

var uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
