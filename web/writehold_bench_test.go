package web_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tend/app"
	"tend/store"
)

// The benchmarks in this file measure how long one request holds the
// writer at its worst: each calls the one Service method a request calls,
// whose single write transaction is the time every other writer waits.
// See BENCHMARKS.md ("How long one request holds the writer").
//
// The instance has 100,000 tasks, all subtasks of one task, all carrying
// one tag, in one project; they are written with SQL (a copy of one task
// made through the Service), which takes seconds where the Service would
// take minutes.
// TEND_HOLD_TASKS sets another count, for a quicker look.
var holdTasks = 100_000

type holdEnv struct {
	dir      string
	db       *store.DB
	svc      *app.Service
	admin    app.Actor
	raw      *sql.DB
	root     app.Task
	tag      app.Tag
	status   app.Status
	refs     []int64 // the bulk tasks' refs
	nextFree int     // the next bulk ref not yet used as a link source
}

var (
	holdSeeds  = &shared[*holdEnv]{build: buildHold}
	holdSeeded = holdSeeds.get
)

func buildHold() (*holdEnv, error) {
	ctx := context.Background()
	if n, err := strconv.Atoi(os.Getenv("TEND_HOLD_TASKS")); err == nil && n > 0 {
		holdTasks = n
	}
	dir, err := os.MkdirTemp("", "tend-hold-")
	if err != nil {
		return nil, err
	}
	s, admin, err := openBenchServer(dir)
	if err != nil {
		return nil, err
	}
	s.srv.Close()
	h := &holdEnv{dir: dir, db: s.db, svc: s.svc, admin: admin}
	if _, err := h.svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: "bulk", Title: "Bulk"}); err != nil {
		return nil, err
	}
	if _, err := h.svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: "elsewhere", Title: "Elsewhere"}); err != nil {
		return nil, err
	}
	if h.root, err = h.svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "root", Project: "bulk", Tags: []string{"everywhere"}}); err != nil {
		return nil, err
	}
	tags, err := h.svc.Tags(ctx, admin, "", 10, "", false)
	if err != nil {
		return nil, err
	}
	h.tag = tags.Items[0]
	sts, err := h.svc.Statuses(ctx, admin, "", "task")
	if err != nil {
		return nil, err
	}
	h.status = sts[0]
	if h.raw, err = sql.Open("sqlite", filepath.Join(dir, "bench.db")+"?_pragma=busy_timeout(10000)"); err != nil {
		return nil, err
	}
	h.raw.SetMaxOpenConns(1)
	_, err = h.raw.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO tasks (id, workspace_id, ref, project_id, parent_id, title, description, type_id, status_id,
			created_by, updated_by, created_at, updated_at, content_updated_at)
		SELECT printf('hold-%08d', i), r.workspace_id, 1000000 + i, r.project_id, r.id, 'bulk task ' || i, 'one of many',
			r.type_id, r.status_id, r.created_by, r.updated_by, r.created_at, r.updated_at, r.content_updated_at
		FROM n, (SELECT * FROM tasks WHERE id = ?) r`, holdTasks, h.root.ID)
	if err != nil {
		return nil, err
	}
	if err := h.tagAll(ctx); err != nil {
		return nil, err
	}
	for i := 1; i <= holdTasks; i++ {
		h.refs = append(h.refs, int64(1000000+i))
	}
	return h, nil
}

// tagAll applies the bulk tag to every bulk task again (after a delete).
func (h *holdEnv) tagAll(ctx context.Context) error {
	if _, err := h.raw.ExecContext(ctx, `INSERT OR IGNORE INTO tags (id, workspace_id, name, created_at)
		SELECT ?, workspace_id, ?, created_at FROM tasks WHERE id = ?`, h.tag.ID, h.tag.Name, h.root.ID); err != nil {
		return err
	}
	_, err := h.raw.ExecContext(ctx, `INSERT OR IGNORE INTO task_tags (task_id, tag_id) SELECT id, ? FROM tasks WHERE id LIKE 'hold-%'`, h.tag.ID)
	return err
}

func (h *holdEnv) close() {
	_ = h.raw.Close()
	_ = h.db.Close()
	_ = os.RemoveAll(h.dir)
}

func (h *holdEnv) must(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWriteHold runs each of the slowest writes one request can cause.
func BenchmarkWriteHold(b *testing.B) {
	h := holdSeeded(b)
	ctx := context.Background()
	root := strconv.FormatInt(h.root.Ref, 10)

	b.Run("tag_delete_on_100k_tasks", func(b *testing.B) {
		for range b.N {
			h.must(b, h.svc.RemoveTag(ctx, h.admin, h.tag.ID))
			b.StopTimer()
			settle(b, h.svc)
			h.must(b, h.tagAll(ctx))
			b.StartTimer()
		}
	})
	b.Run("task_trash_with_100k_subtasks", func(b *testing.B) {
		for range b.N {
			_, err := h.svc.DeleteTask(ctx, h.admin, "", root)
			h.must(b, err)
			b.StopTimer()
			settle(b, h.svc)
			_, err = h.svc.RestoreTask(ctx, h.admin, "", root)
			h.must(b, err)
			settle(b, h.svc)
			b.StartTimer()
		}
	})
	b.Run("task_restore_with_100k_subtasks", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			_, err := h.svc.DeleteTask(ctx, h.admin, "", root)
			h.must(b, err)
			settle(b, h.svc)
			b.StartTimer()
			_, err = h.svc.RestoreTask(ctx, h.admin, "", root)
			h.must(b, err)
			b.StopTimer()
			settle(b, h.svc)
			b.StartTimer()
		}
	})
	// Where the root goes next, counted across the sub-benchmark's runs
	// (one for each b.N tried): a move to where it is would be timed
	// instead of a refile.
	to, moves := []string{"elsewhere", "bulk"}, 0
	b.Run("task_refile_with_100k_subtasks", func(b *testing.B) {
		for range b.N {
			_, err := h.svc.MoveTask(ctx, h.admin, "", root, app.TaskMove{Project: app.PatchOf(to[moves%2])})
			moves++
			h.must(b, err)
			b.StopTimer()
			settle(b, h.svc)
			b.StartTimer()
		}
	})
	if moves%2 == 1 { // the rows below find the root back in bulk
		_, err := h.svc.MoveTask(ctx, h.admin, "", root, app.TaskMove{Project: app.PatchOf("bulk")})
		h.must(b, err)
		settle(b, h.svc)
		moves++
	}
	b.Run("project_trash_and_restore_holding_100k_tasks", func(b *testing.B) {
		for range b.N {
			_, err := h.svc.DeleteProject(ctx, h.admin, "", "bulk")
			h.must(b, err)
			_, err = h.svc.RestoreProject(ctx, h.admin, "", "bulk")
			h.must(b, err)
		}
	})
	b.Run("project_move_holding_100k_tasks", func(b *testing.B) {
		parents := []app.Patch[string]{app.PatchOf("elsewhere"), {Set: true, Null: true}}
		for i := range b.N {
			_, err := h.svc.MoveProject(ctx, h.admin, "", "bulk", parents[i%2])
			h.must(b, err)
		}
	})
	b.Run("status_rename_with_100k_tasks_in_it", func(b *testing.B) {
		for i := range b.N {
			_, err := h.svc.ChangeStatus(ctx, h.admin, h.status.ID, app.UpdateStatus{Label: app.PatchOf("To do " + strconv.Itoa(i))})
			h.must(b, err)
		}
	})
	b.Run("workspace_trash_and_restore", func(b *testing.B) {
		for range b.N {
			_, err := h.svc.DeleteWorkspace(ctx, h.admin, "default")
			h.must(b, err)
			_, err = h.svc.RestoreWorkspace(ctx, h.admin, "default")
			h.must(b, err)
		}
	})
	b.Run("largest_task_create", func(b *testing.B) {
		desc := mentionText(h.refs, h.svc.Limits().MaxMentionsPerText, h.svc.Limits().MaxDescriptionLength)
		for i := range b.N {
			tags := make([]string, h.svc.Limits().MaxTagsPerItem)
			for j := range tags {
				tags[j] = fmt.Sprintf("t%d-%d", i, j)
			}
			_, err := h.svc.CreateTask(ctx, h.admin, "", app.TaskCreate{Title: strings.Repeat("x", h.svc.Limits().MaxTitleLength),
				Description: desc, Project: "bulk", Tags: tags})
			h.must(b, err)
		}
	})
	b.Run("largest_document_create", func(b *testing.B) {
		body := mentionText(h.refs, h.svc.Limits().MaxMentionsPerText, h.svc.Limits().MaxBodyBytes-1024)
		for i := range b.N {
			tags := make([]string, h.svc.Limits().MaxTagsPerItem)
			for j := range tags {
				tags[j] = fmt.Sprintf("d%d-%d", i, j)
			}
			_, err := h.svc.CreateDocument(ctx, h.admin, "", app.DocumentCreate{Title: "big", Body: &body, Project: "bulk", Tags: tags})
			h.must(b, err)
		}
	})
	b.Run("links_at_max_links_per_request", func(b *testing.B) {
		n := h.svc.Limits().MaxLinksPerRequest
		for range b.N {
			b.StopTimer()
			src := strconv.FormatInt(h.refs[h.nextFree], 10)
			others := make([]string, n)
			for j := range others {
				others[j] = strconv.FormatInt(h.refs[h.nextFree+1+j], 10)
			}
			h.nextFree += n + 1
			b.StartTimer()
			_, err := h.svc.AddLinks(ctx, h.admin, "", app.LinkSet{Entity: "task", Refs: []string{src}, LinkType: "blocks", Others: others})
			h.must(b, err)
		}
	})
}

// mentionText is text of n bytes mentioning the first mentions of refs,
// filled out with words.
func mentionText(refs []int64, mentions, n int) string {
	var sb strings.Builder
	for _, r := range refs[:mentions] {
		sb.WriteString("see #" + strconv.FormatInt(r, 10) + " ")
	}
	for i := 0; sb.Len()+8 <= n; i++ {
		sb.WriteString(fmt.Sprintf("w%05d ", i%20000))
	}
	return sb.String()
}
