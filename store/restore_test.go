package store_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// seeded is a database file holding an instance, three projects, a
// document and some tasks, and the actor and workspace that made them.
type seeded struct {
	path  string
	admin app.Actor
	ws    string
}

// withService opens path, runs fn with its Service, and closes it.
func withService(t testing.TB, path string, fn func(*store.DB, *app.Service)) {
	t.Helper()
	db, err := store.Open(t.Context(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fn(db, app.New(db, app.Options{}))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func seedDatabase(t testing.TB, path string) seeded {
	t.Helper()
	seededTemplate.Copy(t, path)
	s := seeded{path: path, ws: seedWorkspace}
	withService(t, path, func(_ *store.DB, svc *app.Service) {
		var err error
		if s.admin, err = svc.Authenticate(t.Context(), seedSecret, "test"); err != nil {
			t.Fatal(err)
		}
	})
	return s
}

// seededTemplate is what seedDatabase copies, made once per test binary:
// an instance, three projects, a document and five tasks. seedSecret is
// its administrator's token and seedWorkspace the workspace they are in.
var (
	seedSecret, seedWorkspace string
	seededTemplate            = storetest.NewTemplate(func(ctx context.Context, db *store.DB) error {
		svc := app.New(db, app.Options{})
		first, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
		if err != nil {
			return err
		}
		seedSecret, seedWorkspace = first.Token.Secret, first.Workspace.Slug
		admin, err := svc.Authenticate(ctx, seedSecret, "test")
		if err != nil {
			return err
		}
		for i := range 3 {
			if _, err := svc.CreateProject(ctx, admin, seedWorkspace, app.ProjectCreate{Key: fmt.Sprintf("p%d", i), Title: fmt.Sprintf("project %d", i)}); err != nil {
				return err
			}
		}
		body := "notes"
		if _, err := svc.CreateDocument(ctx, admin, seedWorkspace, app.DocumentCreate{Title: "a document", Body: &body}); err != nil {
			return err
		}
		for i := range 5 {
			if _, err := svc.CreateTask(ctx, admin, seedWorkspace, app.TaskCreate{Title: fmt.Sprintf("before %d", i)}); err != nil {
				return err
			}
		}
		return nil
	})
)

func addTasks(t *testing.T, svc *app.Service, s seeded, prefix string, n int) {
	t.Helper()
	for i := range n {
		if _, err := svc.CreateTask(t.Context(), s.admin, s.ws, app.TaskCreate{Title: fmt.Sprintf("%s %d", prefix, i)}); err != nil {
			t.Fatal(err)
		}
	}
}

// restoreRefusal is a restore from src that must be refused with code
// and an error saying msg.
type restoreRefusal struct {
	name, src string
	code      app.Code
	msg       string
}

// wantRestoreRefused restores each row's src over the database at path and
// checks the refusal.
func wantRestoreRefused(t *testing.T, path string, rows []restoreRefusal) {
	t.Helper()
	for _, r := range rows {
		_, err := store.RestoreFile(t.Context(), r.src, path)
		if err == nil || app.CodeOf(err) != r.code || !strings.Contains(err.Error(), r.msg) {
			t.Errorf("%s: %v; want %s %q", r.name, err, r.code, r.msg)
		}
	}
}

func taskTitles(t *testing.T, path string) []string {
	t.Helper()
	return column(t, rawOpen(t, path), "SELECT title FROM tasks ORDER BY title")
}

func backupOf(t *testing.T, path string) string {
	t.Helper()
	b, err := store.BackupFile(t.Context(), path, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(filepath.Dir(path), "backups", b.Name)
}

func TestRestoreFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tend.db")
	s := seedDatabase(t, path)
	backup := backupOf(t, path)
	withService(t, path, func(_ *store.DB, svc *app.Service) { addTasks(t, svc, s, "after", 3) })
	later := taskTitles(t, path)

	rep, err := store.RestoreFile(t.Context(), backup, path)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tasks != 5 || rep.Projects != 4 || rep.Documents != 1 || rep.NewestEvent.IsZero() {
		t.Errorf("report = %+v; want 5 tasks, 4 projects (the inbox and three), 1 document and a newest event", rep)
	}
	if rep.From != filepath.Base(backup) || rep.Path != path || rep.SchemaFrom == "" || rep.SchemaFrom != rep.SchemaTo {
		t.Errorf("report = %+v; want from %s into %s at the current schema", rep, filepath.Base(backup), path)
	}
	if got := taskTitles(t, path); strings.Join(got, ",") != "before 0,before 1,before 2,before 3,before 4" {
		t.Errorf("restored tasks = %q", got)
	}
	if !strings.HasPrefix(rep.Aside, path+".before-restore-") {
		t.Fatalf("Aside = %q", rep.Aside)
	}
	if got := taskTitles(t, rep.Aside); strings.Join(got, ",") != strings.Join(later, ",") {
		t.Errorf("the file set aside holds %q; want the database as it was, %q", got, later)
	}
	for _, p := range []string{path, rep.Aside} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v; want mode 0600", p, fi, err)
		}
	}
	if m, _ := filepath.Glob(path + ".restoring*"); len(m) != 0 {
		t.Errorf("temporary files left: %q", m)
	}

	// The restored database opens, and restoring the file set aside brings
	// the previous state back.
	withService(t, path, func(*store.DB, *app.Service) {})
	back, err := store.RestoreFile(t.Context(), rep.Aside, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := taskTitles(t, path); strings.Join(got, ",") != strings.Join(later, ",") {
		t.Errorf("after restoring the aside file, tasks = %q; want %q", got, later)
	}
	if back.Aside == "" || back.Aside == rep.Aside {
		t.Errorf("second restore set aside %q", back.Aside)
	}
}

func TestRestoreIntoNewFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tend.db")
	seedDatabase(t, path)
	backup := backupOf(t, path)
	fresh := filepath.Join(t.TempDir(), "drill", "tend.db")
	rep, err := store.RestoreFile(t.Context(), backup, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Aside != "" || rep.Tasks != 5 {
		t.Errorf("report = %+v; want no file set aside and 5 tasks", rep)
	}
	if got := len(taskTitles(t, fresh)); got != 5 {
		t.Errorf("restored %d tasks, want 5", got)
	}
}

// A refused restore changes nothing: the database keeps its bytes, nothing
// is set aside and nothing temporary is left.
func TestRestoreRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "tend.db")
	seedDatabase(t, path)
	backup := backupOf(t, path)

	corrupt := filepath.Join(dir, "corrupt.db")
	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	// Page 3 on: the header still reads as SQLite, the b-trees do not.
	for i := 2 * 4096; i < min(len(b), 6*4096); i++ {
		b[i] = 0x5a
	}
	if err := os.WriteFile(corrupt, b, 0o600); err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(dir, "newer.db")
	copyFile(t, backup, newer)
	if _, err := rawOpen(t, newer).Exec("PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.db")
	if _, err := rawOpen(t, foreign).Exec("CREATE TABLE t (x); PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}

	open, err := store.Open(t.Context(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantRestoreRefused(t, path, []restoreRefusal{
		{"while open", backup, app.CodeBusy, "is open in another tend process"},
		{"missing", filepath.Join(dir, "nope.db"), app.CodeInternal, "no backup at"},
		{"itself", path, app.CodeInternal, "the database itself"},
	})
	if err := open.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path) // taken after Close, which folds the log into the file
	if err != nil {
		t.Fatal(err)
	}
	wantRestoreRefused(t, path, []restoreRefusal{
		{"corrupt", corrupt, app.CodeInternal, ""},
		{"newer schema", newer, app.CodeSchemaTooNew, "newer than this binary"},
		{"not tend", foreign, app.CodeInternal, "not a tend database"},
	})
	after, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("a refused restore changed the database (%v)", err)
	}
	if m, _ := filepath.Glob(path + ".*"); len(m) != 1 || m[0] != path+".lock" {
		t.Errorf("files beside the database after refused restores: %q; want only its lock file", m)
	}
}
