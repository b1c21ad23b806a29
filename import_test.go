package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tend/app"
	"tend/store"
	"tend/web/webtest"
)

// exported sets up an instance on a new database with one task and returns
// the database and its export.
func exported(t *testing.T) (dbPath, file string) {
	t.Helper()
	dbPath = freshDB(t)
	secret := strings.TrimSpace(mustRun(t, "--db", dbPath, "token", "issue", "--user", "alice"))
	db, svc, err := openService(t.Context(), dbPath, store.Options{}, "")
	if err != nil {
		t.Fatal(err)
	}
	alice, err := svc.Authenticate(t.Context(), secret, "cli")
	if err == nil {
		_, err = svc.CreateTask(t.Context(), alice, "default", app.TaskCreate{Text: "water the plants every monday #home"})
	}
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(t.TempDir(), "tend.jsonl")
	if err := os.WriteFile(file, []byte(mustRun(t, "--db", dbPath, "export")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dbPath, file
}

func TestExportImportCommands(t *testing.T) {
	t.Parallel()
	_, file := exported(t)
	first, _ := os.ReadFile(file)
	into := filepath.Join(t.TempDir(), "new", "tend.db")
	dry := mustRun(t, "--db", into, "import", file, "--dry-run")
	if !strings.HasPrefix(dry, "dry run: nothing was written") || !strings.Contains(dry, "account    alice") {
		t.Errorf("dry run printed\n%s", dry)
	}
	if _, err := os.Stat(into); !os.IsNotExist(err) {
		t.Fatalf("a dry run into a new database left it behind: %v", err)
	}
	out := mustRun(t, "--db", into, "import", file)
	for _, want := range []string{"the instance, from the file", "workspace  default", "account    admin", "records    task",
		"created; instance administrator; owner in default; member of project inbox in default\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("import printed no %q:\n%s", want, out)
		}
	}
	second := mustRun(t, "--db", into, "export", "--workspace", "default")
	_, firstBody, _ := strings.Cut(string(first), "\n")
	_, secondBody, _ := strings.Cut(second, "\n")
	if firstBody != secondBody {
		t.Errorf("the import's export differs:\n%s\n---\n%s", firstBody, secondBody)
	}
	again := mustRun(t, "--db", into, "import", file)
	if !strings.Contains(again, "new ids for every row") || !strings.Contains(again, "as default-2 (default is taken)") {
		t.Errorf("a second import printed\n%s", again)
	}
	fromStdin, _, err := runStdin(t, string(first), "--db", filepath.Join(t.TempDir(), "stdin.db"), "import", "-")
	if err != nil || !strings.Contains(fromStdin, "records    task") {
		t.Errorf("import - : %v\n%s", err, fromStdin)
	}
}

// TestImportRefusals: each malformed file is refused with its code and the
// line it is about, and writes nothing: not even the database it would
// have created.
func TestImportRefusals(t *testing.T) {
	t.Parallel()
	dbPath, file := exported(t)
	good, _ := os.ReadFile(file)
	lines := strings.Split(strings.TrimSuffix(string(good), "\n"), "\n")
	n := len(lines)
	edit := func(f func(ls []string) []string) string {
		return strings.Join(f(append([]string(nil), lines...)), "\n") + "\n"
	}
	find := func(kind string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, `{"kind":"`+kind+`"`) {
				return i
			}
		}
		t.Fatalf("no %s record", kind)
		return 0
	}
	task, user, member := find("task"), find("user"), find("workspace_member")
	for _, tc := range []struct {
		name, file string
		code       app.Code
		detail     string
	}{
		{"empty", "", app.CodeInvalid, "the file is empty"},
		{"not an export", "TYPE,CONTENT\ntask,x\n", app.CodeInvalid, "line 1: this is not a tend export"},
		{"another format", edit(func(ls []string) []string { ls[0] = strings.Replace(ls[0], `"format":1`, `"format":2`, 1); return ls }),
			app.CodeInvalid, "line 1: this is an export of format 2"},
		{"a newer schema", edit(func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"schema":"0`, `"schema":"9`, 1)
			return ls
		}), app.CodeSchemaTooNew, "line 1: the export was written at schema 9"},
		{"a field of the header named twice", edit(func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"format":1`, `"format":1,"format":1`, 1)
			return ls
		}), app.CodeInvalid, `line 1: field "format" is named twice`},
		{"a field named twice", edit(func(ls []string) []string {
			ls[user] = strings.Replace(ls[user], `"version":`, `"is_superuser":1,"version":`, 1)
			return ls
		}), app.CodeInvalid, `line %d: field "is_superuser" is named twice`},
		{"not JSON", edit(func(ls []string) []string { ls[task] = "{task"; return ls }), app.CodeInvalid, "line %d: not a JSON object"},
		{"no kind", edit(func(ls []string) []string { ls[task] = `{"id":"x"}`; return ls }), app.CodeInvalid, "line %d: a record names its kind"},
		{"an unknown kind", edit(func(ls []string) []string { ls[task] = `{"kind":"token","id":"x"}`; return ls }),
			app.CodeInvalid, `line %d: an export holds no record of kind "token"`},
		{"an unknown field", edit(func(ls []string) []string {
			ls[task] = strings.Replace(ls[task], `"seq":`, `"colour":"red","seq":`, 1)
			return ls
		}),
			app.CodeInvalid, `line %d: a task record has no field "colour"`},
		{"a secret's hash", edit(func(ls []string) []string {
			ls[task] = strings.Replace(ls[task], `"seq":`, `"hash":"00","seq":`, 1)
			return ls
		}),
			app.CodeInvalid, `line %d: a task record has no field "hash"`},
		{"text for a number", edit(func(ls []string) []string {
			ls[task] = strings.Replace(ls[task], `"ref":1`, `"ref":"one"`, 1)
			return ls
		}),
			app.CodeInvalid, `line %d: field "ref" of a task record holds a string, not an integer`},
		{"a fraction", edit(func(ls []string) []string { ls[task] = strings.Replace(ls[task], `"ref":1`, `"ref":1.5`, 1); return ls }),
			app.CodeInvalid, `line %d: field "ref": a number that is not a whole number`},
		{"a time in another layout", edit(func(ls []string) []string {
			ls[task] = strings.Replace(ls[task], `"deleted_at":null`, `"deleted_at":"yesterday"`, 1)
			return ls
		}), app.CodeInvalid, `line %d: field "deleted_at" of a task record holds a string, not an instant`},
		{"a rule of the API", edit(func(ls []string) []string {
			ls[task] = strings.Replace(ls[task], `"importance":null`, `"importance":9`, 1)
			return ls
		}), app.CodeInvalid, `line %d: field "importance" of a task record: from 1 to 5`},
		{"a rule of the schema", edit(func(ls []string) []string {
			ls[user] = strings.Replace(ls[user], `"is_superuser":1`, `"is_superuser":2`, 1)
			return ls
		}), app.CodeInvalid, "line %d: a user record breaks a rule of the schema (CHECK constraint failed: is_superuser IN (0, 1))"},
		{"a record twice", edit(func(ls []string) []string {
			ls = append(ls[:task+1], ls[task:]...)
			ls[len(ls)-1] = fmt.Sprintf(`{"kind":"end","records":%d}`, len(ls)-2)
			return ls
		}), app.CodeInvalid, `line %d: field "seq" of a task record is 1, not after the 1 of the one before it`},
		{"a member twice", edit(func(ls []string) []string {
			ls = append(ls[:member+1], ls[member:]...)
			ls[len(ls)-1] = fmt.Sprintf(`{"kind":"end","records":%d}`, len(ls)-2)
			return ls
		}), app.CodeConflict, "line %d: a workspace_member record repeats one already there"},
		{"a reference to nothing", edit(func(ls []string) []string {
			ls[task] = strings.Replace(ls[task], `"parent_id":null`, `"parent_id":"01234567-89ab-7def-8123-456789abcdef"`, 1)
			return ls
		}), app.CodeInvalid, `line %d: field "parent_id" of a task record names 01234567-89ab-7def-8123-456789abcdef, which is not a task of the file`},
		{"cut short", edit(func(ls []string) []string { return ls[:n-1] }), app.CodeInvalid, "line %d: the file ends without its last line"},
		{"a wrong count", edit(func(ls []string) []string { ls[n-1] = `{"kind":"end","records":3}`; return ls }),
			app.CodeInvalid, "line %d: the last line counts 3 records"},
		{"a line after the end", edit(func(ls []string) []string { return append(ls, ls[task]) }), app.CodeInvalid, "line %d: a line after the export's last line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := filepath.Join(t.TempDir(), "in.jsonl")
			if err := os.WriteFile(in, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			into := filepath.Join(t.TempDir(), "tend.db")
			_, _, err := run(t, "--db", into, "import", in)
			want := strings.Replace(tc.detail, "%d", lineOfChange(lines, tc.file), 1)
			if app.CodeOf(err) != tc.code || !strings.Contains(err.Error(), want) {
				t.Fatalf("err = %v; want %s: …%s…", err, tc.code, want)
			}
			if _, err := os.Stat(into); !os.IsNotExist(err) {
				t.Errorf("a refused import left a database behind: %v", err)
			}
		})
	}
	t.Run("no file", func(t *testing.T) {
		_, _, err := run(t, "--db", dbPath, "import", filepath.Join(t.TempDir(), "nope.jsonl"))
		if app.CodeOf(err) != app.CodeNotFound {
			t.Fatalf("err = %v; want not_found", err)
		}
	})
	t.Run("no such workspace", func(t *testing.T) {
		_, _, err := run(t, "--db", dbPath, "export", "--workspace", "nope")
		if app.CodeOf(err) != app.CodeNotFound {
			t.Fatalf("err = %v; want not_found", err)
		}
	})
	t.Run("no database to export", func(t *testing.T) {
		_, _, err := run(t, "--db", tempDB(t), "export")
		if app.CodeOf(err) != app.CodeNotFound {
			t.Fatalf("err = %v; want not_found", err)
		}
	})
	t.Run("usage", func(t *testing.T) {
		status, stderr := runMain(t, "--db", dbPath, "import")
		if status != 2 || !strings.HasPrefix(stderr, "error: accepts 1 arg") {
			t.Fatalf("exit %d: %s", status, stderr)
		}
	})
}

// lineOfChange is the number of the first line where file differs from
// lines, or the line past the last of the shorter.
func lineOfChange(lines []string, file string) string {
	got := strings.Split(strings.TrimSuffix(file, "\n"), "\n")
	for i := range max(len(lines), len(got)) {
		if i >= len(lines) || i >= len(got) || lines[i] != got[i] {
			return strconv.Itoa(i + 1)
		}
	}
	return strconv.Itoa(len(got) + 1)
}

// runStdin is run with stdin.
func runStdin(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb webtest.LogBuffer
	cmd := newRootCmd(&out, &errb)
	cmd.SetIn(bytes.NewReader([]byte(stdin)))
	cmd.SetArgs(args)
	err = cmd.ExecuteContext(t.Context())
	return out.String(), errb.String(), err
}

func TestImportFromTodoist(t *testing.T) {
	t.Parallel()
	dbPath := freshDB(t)
	mustRun(t, "--db", dbPath, "token", "issue")
	file := filepath.Join("app", "from", "testdata", "todoist", "Groceries.csv")
	dry := mustRun(t, "--db", dbPath, "import", "--from", "todoist", file, "--dry-run")
	want := []string{
		"dry run: nothing was written; importing from todoist would write:",
		"project  groceries          created; tasks 5 created, 0 updated, 0 unchanged; comments 1 created, 0 updated; links 0 created",
		"project  groceries/weekend  created; tasks 4 created, 0 updated, 0 unchanged; comments 0 created, 0 updated; links 0 created",
		"not imported as it was (4):",
		`  line 13: "ev mon": not a date or repeat tend reads: the task is left undated, the words kept in its description`,
	}
	for _, w := range want {
		if !strings.Contains(dry, w+"\n") {
			t.Errorf("the dry run printed no line %q:\n%s", w, dry)
		}
	}
	out := mustRun(t, "--db", dbPath, "import", "--from", "todoist", file, "--project", "shop")
	if !strings.HasPrefix(out, "project  shop          created; tasks 5 created") {
		t.Errorf("the import printed\n%s", out)
	}
	again := mustRun(t, "--db", dbPath, "import", "--from", "todoist", file, "--project", "shop")
	if !strings.Contains(again, "existing; tasks 0 created, 0 updated, 5 unchanged") {
		t.Errorf("the second import printed\n%s", again)
	}
	big := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(big, []byte("TYPE,CONTENT\n"+strings.Repeat("task,Buy milk\n", 100_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"an unknown tool", []string{"--db", dbPath, "import", "--from", "trello", file}, 2, "error: --from is one of todoist, vikunja, beads, github, not \"trello\""},
		{"--project without --from", []string{"--db", dbPath, "import", file, "--project", "x"}, 2, "error: --project, --workspace, --as, --json and --max-size go with --from"},
		{"no database", []string{"--db", tempDB(t), "import", "--from", "todoist", file}, 1, "error: not_found: no database at "},
		{"no such account", []string{"--db", dbPath, "import", "--from", "todoist", file, "--as", "nobody"}, 1, "error: not_found: no such account"},
		{"no such workspace", []string{"--db", dbPath, "import", "--from", "todoist", file, "--workspace", "nowhere"}, 1, "error: not_found: "},
		{"a bad key", []string{"--db", dbPath, "import", "--from", "todoist", file, "--project", "Shop!"}, 1, "error: validation: "},
		{"a file that is not Todoist's", []string{"--db", dbPath, "import", "--from", "todoist", "go.mod"}, 1, "error: invalid: line 1: no TYPE column"},
		{"a file over --max-size", []string{"--db", dbPath, "import", "--from", "todoist", big, "--max-size", "1"}, 1,
			"error: too_large: the file holds more than 1 MiB, the most an import reads; tend import --max-size MIB raises the limit"},
		{"no --max-size", []string{"--db", dbPath, "import", "--from", "todoist", file, "--max-size", "0"}, 2, "error: --max-size is a number of MiB, 1 or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, stderr := runMain(t, tc.args...)
			if status != tc.status || !strings.HasPrefix(stderr, tc.stderr) {
				t.Fatalf("exit %d, stderr %q; want %d, %q…", status, stderr, tc.status, tc.stderr)
			}
		})
	}
}

// TestImportFromOnAFreshMachine: with no --db nor TEND_DB, tend import
// --from creates the default database as tend add does, and imports into
// it; a --db that names no file is still refused (TestImportFromTodoist).
func TestImportFromOnAFreshMachine(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	env := []string{"XDG_DATA_HOME=" + data, "TEND_DB=", "TEND_URL=", "TEND_TOKEN="}
	file := filepath.Join("app", "from", "testdata", "todoist", "Groceries.csv")
	dbPath := filepath.Join(data, "tend", "tend.db")
	status, stderr := runMainEnv(t, env, "import", "--from", "todoist", file)
	if status != 0 || !strings.HasPrefix(stderr, "tend: created "+dbPath+", acting as its administrator") {
		t.Fatalf("exit %d, stderr %q; want 0 and the database created", status, stderr)
	}
	if out := mustRun(t, "--db", dbPath, "import", "--from", "todoist", file); !strings.Contains(out, "existing; tasks 0 created, 0 updated, 5 unchanged") {
		t.Errorf("the import into the created database did not write its tasks:\n%s", out)
	}
}

// vikunjaArchive packs the Vikunja sample as Vikunja's export mails it.
func vikunjaArchive(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "vikunja-export.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	for _, name := range []string{"data.json", "filters.json", "VERSION"} {
		body, err := os.ReadFile(filepath.Join("app", "from", "testdata", "vikunja", name))
		if err != nil {
			t.Fatal(err)
		}
		w, _ := z.Create(name)
		_, _ = w.Write(body)
	}
	if err := errors.Join(z.Close(), f.Close()); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestImportFromTools imports each tool's sample from the command line,
// then again: the second import finds everything the first wrote.
func TestImportFromTools(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tool, file string
		first      []string
		again      string
	}{
		{"vikunja", "", []string{"project inbox existing; tasks 2 created", "link type copied_from created", "link type has_subtask created",
			`  task 6: "every 7200 seconds": tend repeats by whole days: the task does not repeat`}, "existing; tasks 0 created, 0 updated, 3 unchanged"},
		{"beads", filepath.Join("app", "from", "testdata", "beads", "issues.jsonl"), []string{"project tnd created; tasks 6 created, 0 updated, 0 unchanged; comments 3 created, 0 updated; links 3 created",
			`  line 7: "tnd-k1l2": a message, not work: left out`}, "existing; tasks 0 created, 0 updated, 6 unchanged"},
		{"github", filepath.Join("app", "from", "testdata", "github", "issues.json"), []string{"project acme-widgets created; tasks 3 created, 0 updated, 0 unchanged; comments 3 created",
			`  issue #14: "bob": a second assignee: a tend task has one`}, "existing; tasks 0 created, 0 updated, 3 unchanged"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			dbPath := freshDB(t)
			mustRun(t, "--db", dbPath, "token", "issue")
			file := tc.file
			if file == "" {
				file = vikunjaArchive(t)
			}
			out := strings.Join(strings.Fields(mustRun(t, "--db", dbPath, "import", "--from", tc.tool, file)), " ")
			for _, w := range tc.first {
				if !strings.Contains(out, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("the import printed no %q:\n%s", w, out)
				}
			}
			if again := mustRun(t, "--db", dbPath, "import", "--from", tc.tool, file); !strings.Contains(again, tc.again) {
				t.Errorf("the second import printed\n%s", again)
			}
			_, _, err := run(t, "--db", dbPath, "import", "--from", tc.tool, "go.sum")
			if app.CodeOf(err) != app.CodeInvalid {
				t.Errorf("a file of another kind: %v", err)
			}
		})
	}
}

// TestImportFromAgainKeepsLocalWork: the second import of a changed file
// prints each task it changed and how, and each field changed both in tend
// and in the file as a conflict, which keeps tend's value; --json says the
// same as one document.
func TestImportFromAgainKeepsLocalWork(t *testing.T) {
	t.Parallel()
	dbPath := freshDB(t)
	secret := strings.TrimSpace(mustRun(t, "--db", dbPath, "token", "issue"))
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	v1 := write("v1.jsonl", `{"id":"bd-1","title":"Write the spec","description":"first draft","priority":2}`+"\n"+
		`{"id":"bd-2","title":"Order parts","status":"open"}`+"\n")
	v2 := write("v2.jsonl", `{"id":"bd-1","title":"Write the spec, v2","description":"second draft","priority":0}`+"\n"+
		`{"id":"bd-2","title":"Order parts","status":"open"}`+"\n")
	mustRun(t, "--db", dbPath, "import", "--from", "beads", v1)
	db, svc, err := openService(t.Context(), dbPath, store.Options{}, "")
	if err != nil {
		t.Fatal(err)
	}
	admin, err := svc.Authenticate(t.Context(), secret, "cli")
	if err == nil {
		_, err = svc.UpdateTask(t.Context(), admin, "", "1", app.TaskUpdate{Title: app.Patch[string]{Set: true, Value: "Spec (tend)"}})
	}
	if err == nil {
		_, err = svc.CompleteTask(t.Context(), admin, "", "2", app.Completion{})
	}
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	dry := mustRun(t, "--db", dbPath, "import", "--from", "beads", v2, "--json", "--dry-run")
	var rep struct {
		DryRun   bool `json:"dry_run"`
		Projects []struct {
			TasksUpdated int `json:"tasks_updated"`
			Tasks        []struct {
				Ref       int64    `json:"ref"`
				Updated   []string `json:"updated"`
				Conflicts []struct{ Field, Kept, File string }
			} `json:"tasks"`
		} `json:"projects"`
	}
	if err := json.Unmarshal([]byte(dry), &rep); err != nil {
		t.Fatalf("--json printed %s: %v", dry, err)
	}
	if p := rep.Projects; !rep.DryRun || len(p) != 1 || p[0].TasksUpdated != 1 || len(p[0].Tasks) != 1 ||
		fmt.Sprint(p[0].Tasks[0].Updated) != "[description importance]" || fmt.Sprint(p[0].Tasks[0].Conflicts) != "[{title Spec (tend) Write the spec, v2}]" {
		t.Errorf("--json printed %s", dry)
	}
	out := mustRun(t, "--db", dbPath, "import", "--from", "beads", v2)
	lines := strings.Split(out, "\n")
	for i, want := range []string{
		"project bd existing; tasks 0 created, 1 updated, 1 unchanged; comments 0 created, 0 updated; links 0 created",
		"updated #1 Spec (tend) description, importance",
		`conflict #1 Spec (tend) title changed in tend and in the file: kept "Spec (tend)", the file has "Write the spec, v2"`,
	} {
		if i >= len(lines) || strings.Join(strings.Fields(lines[i]), " ") != want {
			t.Errorf("line %d of the report is not %q:\n%s", i+1, want, out)
		}
	}
	if strings.Contains(out, "#2") {
		t.Errorf("a task the file did not change is named:\n%s", out)
	}
}
