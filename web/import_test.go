package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tend/app"
	"tend/internal/golden"
	"tend/store/storetest"
	"tend/web/wire"
)

// importLines is an export's lines, to craft a file from.
type importLines []string

func linesOf(file []byte) importLines {
	return strings.Split(strings.TrimSuffix(string(file), "\n"), "\n")
}

// record decodes the first record of kind.
func (ls importLines) record(t *testing.T, kind string) map[string]any {
	t.Helper()
	for _, l := range ls {
		if strings.HasPrefix(l, `{"kind":"`+kind+`"`) {
			d := json.NewDecoder(strings.NewReader(l))
			d.UseNumber()
			var m map[string]any
			if err := d.Decode(&m); err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	t.Fatalf("no %s record", kind)
	return nil
}

// with is the file with recs added before its last line, which counts them.
func (ls importLines) with(t *testing.T, recs ...map[string]any) []byte {
	t.Helper()
	out := append([]string(nil), ls[:len(ls)-1]...)
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	out = append(out, fmt.Sprintf(`{"kind":"end","records":%d}`, len(out)-1))
	return []byte(strings.Join(out, "\n") + "\n")
}

// edited is the file with the first record of kind changed by f.
func (ls importLines) edited(t *testing.T, kind string, f func(r map[string]any)) []byte {
	t.Helper()
	out := append(importLines(nil), ls...)
	for i, l := range out {
		if strings.HasPrefix(l, `{"kind":"`+kind+`"`) {
			r := out.record(t, kind)
			f(r)
			b, _ := json.Marshal(r)
			out[i] = string(b)
			return []byte(strings.Join(out, "\n") + "\n")
		}
	}
	t.Fatalf("no %s record", kind)
	return nil
}

// lineOf is the line of the file that holds s.
func lineOf(file []byte, s string) int {
	for i, l := range linesOf(file) {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	return 0
}

// copyOf is r with the fields of set changed.
func copyOf(r map[string]any, set map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range r {
		out[k] = v
	}
	for k, v := range set {
		out[k] = v
	}
	return out
}

func (e *env) importFile(file []byte) (app.ImportReport, error) {
	return e.Svc.Import(context.Background(), app.SystemActor("cli"), wire.NewExportDecoder(bytes.NewReader(file)), false)
}

const (
	newID1 = "0190f000-0000-7000-8000-000000000001"
	newID2 = "0190f000-0000-7000-8000-000000000002"
)

// TestImportRefusesWhatReachesOutside: a file crafted to write into what
// the instance held before it, to keep a sequence number no write could
// follow, or to hold what the API refuses, is refused with the line and the
// field, and writes nothing.
func TestImportRefusesWhatReachesOutside(t *testing.T) {
	t.Parallel()
	here := newEnv(t)
	seedAll(here)
	id := func(path string) string {
		return here.OK(http.StatusOK, http.MethodGet, inDefault(path), here.Admin, nil)["id"].(string)
	}
	hereWS, secret := id("/v1/workspaces/default"), id("/v1/projects/secret")
	covert := lstItems(here.OK(http.StatusOK, http.MethodGet, "/v1/tasks?workspace_id=default&project=secret", here.Admin, nil))[0]
	hereTask := covert["id"].(string)
	alice := here.OK(http.StatusOK, http.MethodGet, "/v1/users/alice", here.Admin, nil)["id"].(string)

	// mallory is an account of the file and none here: what she may do
	// here is the file's to grant, within the file's workspaces.
	src := elsewhere(t)
	src.OK(http.StatusCreated, http.MethodPost, "/v1/users", src.Admin, map[string]any{"username": "mallory"})
	src.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/default/members", src.Admin, map[string]any{"username": "mallory", "role": "viewer"})
	src.OK(http.StatusCreated, http.MethodPost, "/v1/tasks?workspace_id=default", src.Admin, map[string]any{"title": "mine"})
	file := linesOf(src.exportAll())
	task, user, ws := file.record(t, "task"), file.record(t, "user"), file.record(t, "workspace")
	me, myWS := src.OK(http.StatusOK, http.MethodGet, "/v1/users/mallory", src.Admin, nil)["id"], ws["id"]
	at := "2026-03-02T09:00:00.000Z"
	planted := copyOf(task, map[string]any{"id": newID1, "ref": 99, "seq": 99, "project_id": secret})
	before := here.exportAll()
	for _, tc := range []struct {
		name   string
		file   []byte
		find   string // the text of the line the refusal names
		detail string
	}{
		{"an owner of a workspace here", file.with(t, map[string]any{"kind": "workspace_member", "workspace_id": hereWS,
			"user_id": me, "role": "owner", "created_at": at}), hereWS, `field "workspace_id" of a workspace_member record names ` + hereWS + `, which is not a workspace of the file`},
		{"a member of a private project here", file.with(t, map[string]any{"kind": "project_member", "project_id": secret,
			"user_id": me, "created_at": at}), secret, `field "project_id" of a project_member record names ` + secret + `, which is not a project of the file`},
		{"a role in a private project here", file.with(t, map[string]any{"kind": "project_role", "project_id": secret,
			"user_id": me, "role": "admin", "created_at": at}), secret, `field "project_id" of a project_role record`},
		{"a task in a private project here", file.with(t, planted), newID1, `field "project_id" of a task record names ` + secret},
		{"a comment on an item here", file.with(t, map[string]any{"kind": "comment", "seq": 1, "id": newID1, "workspace_id": myWS,
			"entity_type": "task", "entity_id": hereTask, "author_id": me, "body": "by admin", "created_at": at, "updated_at": at}),
			newID1, `field "entity_id" of a comment record names ` + hereTask + `, which is not a task of the file`},
		{"a journal event in a workspace here", file.with(t, map[string]any{"kind": "event", "seq": 1, "id": newID1, "workspace_id": hereWS,
			"entity_type": "task", "entity_id": hereTask, "action": "task.created", "actor_user_id": me, "created_at": at}),
			newID1, `field "workspace_id" of a event record names ` + hereWS},
		{"an external id of an item here", file.with(t, map[string]any{"kind": "external_id", "workspace_id": myWS, "source": "github",
			"external_id": "acme/x#1", "entity_type": "task", "entity_id": hereTask, "updated_at": at}), "acme/x#1", `field "entity_id" of a external_id record`},
		{"a feed for a workspace here", file.with(t, map[string]any{"kind": "calendar", "seq": 1, "id": newID1, "prefix": "tcal_x1",
			"title": "all", "user_id": me, "workspace_id": hereWS, "audience": "workspace", "created_at": at}), newID1, `field "workspace_id" of a calendar record`},
		{"a project here named by a row of another kind", file.with(t, copyOf(task, map[string]any{"id": secret, "ref": 99, "seq": 99}),
			map[string]any{"kind": "project_member", "project_id": secret, "user_id": me, "created_at": at}),
			`"project_id":"` + secret + `"`, `field "project_id" of a project_member record names ` + secret + `, which is not a project of the file, but a task`},
		{"an account not of the file", file.with(t, copyOf(task, map[string]any{"id": newID1, "ref": 99, "seq": 99, "assignee_id": alice})),
			newID1, `field "assignee_id" of a task record names ` + alice + `, which is not a user of the file`},
		{"an agent answering to an account here", file.with(t, copyOf(user, map[string]any{"id": newID2, "seq": 9, "username": "bot",
			"is_service_account": 1, "is_superuser": 0, "answers_to": alice})), "bot", `field "answers_to" of a user record names ` + alice},

		{"a title over the limit", file.edited(t, "task", func(r map[string]any) { r["title"] = strings.Repeat("x", 501) }), `"kind":"task"`,
			`field "title" of a task record: at most 500 characters (got 501)`},
		{"a negative ref", file.edited(t, "task", func(r map[string]any) { r["ref"] = -3 }), `"kind":"task"`,
			`field "ref" of a task record: a ref is a positive number`},
		{"a negative next ref", file.edited(t, "workspace", func(r map[string]any) { r["next_ref"] = -3 }), `"kind":"workspace"`,
			`field "next_ref" of a workspace record: a ref is a positive number`},
		{"a role that is none", file.edited(t, "workspace_member", func(r map[string]any) { r["role"] = "god" }), `"kind":"workspace_member"`,
			`field "role" of a workspace_member record: role is one of`},
		{"a visibility that is none", file.edited(t, "project", func(r map[string]any) { r["visibility"] = "hidden" }), `"kind":"project"`,
			`field "visibility" of a project record: visibility is public or private`},
		{"a username the API refuses", file.edited(t, "user", func(r map[string]any) { r["username"] = "me" }), `"kind":"user"`,
			`field "username" of a user record: "me" is reserved`},
		{"a timezone that is none", file.edited(t, "task", func(r map[string]any) { r["timezone"] = "Mars/Olympus" }), `"kind":"task"`,
			`field "timezone" of a task record: unknown timezone`},
		{"a date that is none", file.edited(t, "task", func(r map[string]any) { r["due_at"] = "2026-02-30T09:00:00.000Z" }), `"kind":"task"`,
			`field "due_at" of a task record holds a string, not an instant`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := here.importFile(tc.file)
			want := fmt.Sprintf("line %d: %s", lineOf(tc.file, tc.find), tc.detail)
			if app.CodeOf(err) != app.CodeInvalid || !strings.Contains(err.Error(), want) {
				t.Fatalf("err = %v\nwant invalid: …%s…", err, want)
			}
			if after := here.exportAll(); !bytes.Equal(before, after) {
				t.Fatalf("a refused import changed the instance:\n%s", golden.Diffs(string(before), string(after), 6))
			}
		})
	}
}

// TestImportHistoryOfSomethingElse: an event of the file about a row the
// file does not hold (a link deleted since, or a crafted id of an item
// here) is kept under an id nothing here has, so the item here shows
// nothing of it.
func TestImportHistoryOfSomethingElse(t *testing.T) {
	t.Parallel()
	here := newEnv(t)
	mine := here.OK(http.StatusCreated, http.MethodPost, "/v1/tasks?workspace_id=default", here.Admin, map[string]any{"title": "mine"})
	history := here.Do(http.MethodGet, inDefault(tskPath(mine, "events")), here.Admin, nil)

	src := elsewhere(t)
	file := linesOf(src.exportAll())
	ev := file.record(t, "event")
	crafted := file.with(t, copyOf(ev, map[string]any{"id": newID1, "seq": 999, "entity_type": "task", "entity_id": mine["id"],
		"action": "task.completed"}))
	if _, err := here.importFile(crafted); err != nil {
		t.Fatal(err)
	}
	if again := here.Do(http.MethodGet, inDefault(tskPath(mine, "events")), here.Admin, nil); !bytes.Equal(history.Body, again.Body) {
		t.Errorf("the task's history changed:\n%s\n%s", history.Body, again.Body)
	}
}

// TestImportSeqsWithinBounds: into an instance in use, a file's sequence
// numbers are renumbered after the last, however large; into a new
// database they are kept, up to 2^53−1, and refused past it; either way the
// instance writes as before afterwards.
func TestImportSeqsWithinBounds(t *testing.T) {
	t.Parallel()
	src := elsewhere(t)
	src.OK(http.StatusCreated, http.MethodPost, "/v1/tasks?workspace_id=default", src.Admin, map[string]any{"title": "mine"})
	file := linesOf(src.exportAll())
	huge := file.edited(t, "task", func(r map[string]any) { r["seq"] = json.Number("9223372036854775807") })

	here := elsewhere(t)
	if _, err := here.importFile(huge); err != nil {
		t.Fatal(err)
	}
	here.OK(http.StatusCreated, http.MethodPost, "/v1/tasks?workspace_id=default", here.Admin, map[string]any{"title": "still writes"})

	for _, tc := range []struct {
		name   string
		file   []byte
		detail string
	}{
		{"past the bound", huge, `field "seq" of a task record is 9223372036854775807, not from 1 to 9007199254740991`},
		{"negative", file.edited(t, "event", func(r map[string]any) { r["seq"] = -1 }), `field "seq" of a event record is -1, not from 1 to`},
		{"zero", file.edited(t, "user", func(r map[string]any) { r["seq"] = 0 }), `field "seq" of a user record is 0, not from 1 to`},
		{"out of order", file.with(t, copyOf(file.record(t, "task"), map[string]any{"id": newID1, "ref": 99})),
			`field "seq" of a task record is 1, not after the 1 of the one before it`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := storetest.Open(t)
			svc := app.New(db, app.Options{Version: "test"})
			_, err := svc.Import(context.Background(), app.SystemActor("cli"), wire.NewExportDecoder(bytes.NewReader(tc.file)), false)
			if app.CodeOf(err) != app.CodeInvalid || !strings.Contains(err.Error(), tc.detail) {
				t.Fatalf("err = %v, want invalid: …%s…", err, tc.detail)
			}
			if _, err := svc.Instance(context.Background(), app.SystemActor("cli")); app.CodeOf(err) != app.CodeNotFound {
				t.Errorf("a refused import into a new database left an instance: %v", err)
			}
		})
	}
	highest := file.edited(t, "task", func(r map[string]any) { r["seq"] = json.Number("9007199254740991") })
	kept, _ := imported(t, src, highest)
	kept.OK(http.StatusCreated, http.MethodPost, "/v1/tasks?workspace_id=default", kept.Admin, map[string]any{"title": "still writes"})
}

// TestImportReportsRights: the report names each account's rights by the
// import: administrator or not, the account an agent answers to, and each
// role in a workspace or project.
func TestImportReportsRights(t *testing.T) {
	t.Parallel()
	a := newEnv(t)
	seedAll(a)
	other := elsewhere(t)
	rep, err := other.importFile(a.exportAll())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, u := range rep.Users {
		got[u.Username] = fmt.Sprint(u.Administrator, " ", u.AnswersTo, " ", u.Roles)
	}
	want := map[string]string{
		"admin": "true  [{default-2  owner} {side  owner} {default-2 inbox member} {side inbox member} {default-2 web member} " +
			"{default-2 api member} {default-2 secret member} {default-2 old member}]",
		"alice": "false  [{default-2  admin}]",
		"bob":   "false  [{default-2  member} {default-2 secret member} {default-2 api viewer}]",
		"robot": "false alice [{default-2  member}]",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rights\n%v\nwant\n%v", got, want)
	}
}

// TestImportRefusesCyclesAndSpentRefs: a file whose parents or agents come
// back on themselves, which the API refuses to make with cycle, and one
// whose workspace would hand out a ref an imported item holds already, are
// refused with the line, and write nothing.
func TestImportRefusesCyclesAndSpentRefs(t *testing.T) {
	t.Parallel()
	here := newEnv(t)
	seedAll(here)
	src := elsewhere(t)
	a := src.OK(http.StatusCreated, http.MethodPost, "/v1/tasks?workspace_id=default", src.Admin, map[string]any{"title": "a"})["id"].(string)
	b := src.OK(http.StatusCreated, http.MethodPost, "/v1/tasks?workspace_id=default", src.Admin, map[string]any{"title": "b"})["id"].(string)
	file := linesOf(src.exportAll())
	user := file.record(t, "user")
	// looped makes every task of the file the child of the other one.
	looped := append(importLines(nil), file...)
	for i, l := range looped {
		for _, p := range [][2]string{{a, b}, {b, a}} {
			if strings.HasPrefix(l, `{"kind":"task"`) && strings.Contains(l, `"id":"`+p[0]+`"`) {
				looped[i] = strings.Replace(l, `"parent_id":null`, `"parent_id":"`+p[1]+`"`, 1)
			}
		}
	}
	agent := func(id, boss, name string) map[string]any {
		return copyOf(user, map[string]any{"id": id, "seq": 90, "username": name, "is_service_account": 1, "is_superuser": 0, "answers_to": boss})
	}
	before := here.exportAll()
	for _, tc := range []struct {
		name, find, detail string
		code               app.Code
		file               []byte
	}{
		{"tasks that are each other's parent", `"id":"` + a + `"`, `field "parent_id" of a task record makes it its own ancestor`, app.CodeCycle,
			[]byte(strings.Join(looped, "\n") + "\n")},
		{"agents that answer to each other", `"username":"bot1"`, `field "answers_to" of a user record makes it its own ancestor`, app.CodeCycle,
			file.with(t, agent(newID1, newID2, "bot1"), copyOf(agent(newID2, newID1, "bot2"), map[string]any{"seq": 91}))},
		{"a ref the workspace would hand out again", `"id":"` + b + `"`, `an item has the ref 2, but its workspace's next_ref is 2`, app.CodeInvalid,
			file.edited(t, "workspace", func(r map[string]any) { r["next_ref"] = 2 })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := here.importFile(tc.file)
			want := fmt.Sprintf("line %d: %s", lineOf(tc.file, tc.find), tc.detail)
			if app.CodeOf(err) != tc.code || !strings.Contains(err.Error(), want) {
				t.Fatalf("err = %v\nwant %s: …%s…", err, tc.code, want)
			}
			if after := here.exportAll(); !bytes.Equal(before, after) {
				t.Fatalf("a refused import changed the instance:\n%s", golden.Diffs(string(before), string(after), 6))
			}
		})
	}
	if _, err := here.importFile([]byte(strings.Join(file, "\n") + "\n")); err != nil {
		t.Fatalf("the file as exported: %v", err)
	}
}

// TestImportNamesNoCredentialHere: the file holds no credential, so a row
// that names the credential which made it (a feed, a verification, an
// event) never comes to name one of this instance, whose listing or
// revocation would then reach what the file planted.
func TestImportNamesNoCredentialHere(t *testing.T) {
	t.Parallel()
	here := newEnv(t)
	tokens, _ := here.listing("/v1/tokens", here.Admin)
	mine := tokens[0].(map[string]any)["id"].(string)
	src := elsewhere(t)
	src.OK(http.StatusCreated, http.MethodPost, "/v1/calendars", src.Admin, map[string]any{"title": "planted", "audience": "me"})
	file := linesOf(src.exportAll()).edited(t, "calendar", func(r map[string]any) { r["created_by_token"] = mine })
	if _, err := here.importFile(file); err != nil {
		t.Fatal(err)
	}
	for _, l := range linesOf(here.exportAll()) {
		if strings.Contains(l, `"planted"`) && strings.Contains(l, mine) {
			t.Fatalf("the imported feed names a credential here: %s", l)
		}
	}
}
