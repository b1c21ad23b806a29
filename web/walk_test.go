package web_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"tend/app"
	"tend/web/webtest"
)

// The walks along parent_id and answers_to go all the way (issue 32 §3):
// they stopped at depth 64 while nesting and chains have no limit. Each
// test runs at that depth, one past it and far past it; the chains are
// made in one transaction (an import, or SQL for accounts), the
// assertions go through the API.

// sqlExec runs a statement on the database file beside the server: what
// the API makes one request at a time, or refuses to make at all.
func sqlExec(t *testing.T, path, query string, args ...any) {
	t.Helper()
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// deepChain imports a chain of tasks into project deep, each the subtask
// of the one before, depth below the first, and answers their refs, the
// root's first.
func deepChain(e *env, depth int) []int64 {
	e.T.Helper()
	ctx := context.Background()
	admin, err := e.Svc.Authenticate(ctx, e.Admin, "test")
	if err != nil {
		e.T.Fatal(err)
	}
	p := app.MigratedProject{ExternalID: "deep", Title: "Deep"}
	for i := range depth + 1 {
		tk := app.MigratedTask{ExternalID: fmt.Sprint(i), Title: fmt.Sprintf("deep %03d", i)}
		if i > 0 {
			tk.Parent = fmt.Sprint(i - 1)
		}
		p.Tasks = append(p.Tasks, tk)
	}
	m := app.Migration{Source: "github", Projects: []app.MigratedProject{p}}
	if _, err := e.Svc.Migrate(ctx, admin, m, app.MigrateOptions{Workspace: "default", Project: "deep"}); err != nil {
		e.T.Fatal(err)
	}
	// One connection for every ref: each new one parses the whole schema,
	// which under the race detector cost more than the chain's import.
	raw, err := sql.Open("sqlite", e.DB.Path()+"?mode=ro")
	if err != nil {
		e.T.Fatal(err)
	}
	defer raw.Close()
	refs := make([]int64, depth+1)
	for i := range refs {
		if err := raw.QueryRow(`SELECT ref FROM tasks WHERE title = ?`, fmt.Sprintf("deep %03d", i)).Scan(&refs[i]); err != nil {
			e.T.Fatal(err)
		}
	}
	return refs
}

// listed counts the tasks a listing answers.
func (e *env) listed(query string) int {
	e.T.Helper()
	return len(prjItems(e.T, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?limit=500&"+query, e.Admin, nil)))
}

// TestDeepSubtree: trash, restore, refile and the listings of a subtree
// reach every descendant of a chain 64, 65, 66 and (without -short) 200
// deep (the walks under a task stopped 65 levels down, those from it 64),
// in one transaction as in steps, and a move of the root under its deepest
// descendant is refused as the cycle it would make.
func TestDeepSubtree(t *testing.T) {
	t.Parallel()
	depths := []int{64, 65, 66, 200}
	if testing.Short() {
		// The limit is at 64 and 65; 200 only makes each step longer.
		depths = depths[:3]
	}
	for _, depth := range depths {
		for _, step := range []int{1000, 50} {
			t.Run(fmt.Sprintf("%d deep in steps of %d", depth, step), func(t *testing.T) {
				t.Parallel()
				path := filepath.Join(t.TempDir(), "tend.db")
				e := zebraEnv(t, path, webtest.CopyBootstrapped(t, path), step, nil)
				e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "side", "title": "Side"})
				refs := deepChain(e, depth)
				root := fmt.Sprintf("/v1/tasks/%d", refs[0])
				settle := func() {
					t.Helper()
					if err := e.Svc.SettleWork(); err != nil {
						t.Fatal(err)
					}
				}
				for _, q := range []string{fmt.Sprintf("under=%d", refs[0]), fmt.Sprintf("parent=%d&subtree=true", refs[0])} {
					if n := e.listed(q); n != depth {
						t.Errorf("%s lists %d tasks, want %d", q, n, depth)
					}
				}
				e.OK(http.StatusOK, http.MethodDelete, root, e.Admin, nil)
				settle()
				if live, trash := e.listed("project=deep"), e.listed("project=deep&deleted=true"); live != 0 || trash != depth+1 {
					t.Errorf("after the trash: %d live, %d in the trash; want 0 and %d", live, trash, depth+1)
				}
				// The restore is judged on its own: every task of the chain in
				// the trash at the root's instant, as a whole trash leaves it.
				sqlExec(t, path, `UPDATE tasks SET deleted_at = (SELECT deleted_at FROM tasks WHERE ref = ?) WHERE title LIKE 'deep %'`, refs[0])
				e.OK(http.StatusOK, http.MethodPost, root+"/restore", e.Admin, nil)
				settle()
				if live, trash := e.listed("project=deep"), e.listed("project=deep&deleted=true"); live != depth+1 || trash != 0 {
					t.Errorf("after the restore: %d live, %d in the trash; want %d and 0", live, trash, depth+1)
				}
				e.OK(http.StatusOK, http.MethodPost, root+"/move", e.Admin, map[string]any{"project": "side"})
				settle()
				if side, deep := e.listed("project=side"), e.listed("project=deep"); side != depth+1 || deep != 0 {
					t.Errorf("after the refile: %d in side, %d left in deep; want %d and 0", side, deep, depth+1)
				}
				e.Problem(http.StatusConflict, "cycle", http.MethodPost, root+"/move", e.Admin, map[string]any{"parent": refs[depth]})
			})
		}
	}
}

// deepAgents makes agents bot1 … botN in one transaction, bot1 answering
// to person, each next to the one before.
func deepAgents(t *testing.T, path, person string, n int) {
	t.Helper()
	sqlExec(t, path, `INSERT INTO users (id, username, is_service_account, answers_to, created_at, updated_at)
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		SELECT 'bot-' || i, 'bot' || i, 1, CASE i WHEN 1 THEN (SELECT id FROM users WHERE username = ?) ELSE 'bot-' || (i - 1) END,
			'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n`, n, person)
}

// agentSession puts a session for username in place (the API opens none
// for an agent; old data may hold one) and answers its secret.
func agentSession(e *env, username string) string {
	e.T.Helper()
	secret := "tend_deepagent1_" + strings.Repeat("a", 40)
	sum := sha256.Sum256([]byte(secret))
	sqlExec(e.T, e.DB.Path(), `INSERT INTO sessions (id, prefix, hash, user_id, last_seen_at, idle_until, expires_at, created_at)
		SELECT 'deep-session', ?, ?, id, '2026-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z',
			'2026-01-01T00:00:00.000Z' FROM users WHERE username = ?`, secret[:15], sum[:], username)
	return secret
}

// TestDeepAgentChain: an agent 64, 65, 66 and (without -short) 200 below
// a person works while the person is active, and its credential, its
// session and its calendar feed stop with the person's deactivation; its
// listing names the person as responsible, and handing the top agent to
// the deepest is refused as a cycle.
func TestDeepAgentChain(t *testing.T) {
	t.Parallel()
	depths := []int{64, 65, 66, 200}
	if testing.Short() {
		// The limit is at 64 and 65; 200 only makes each step longer.
		depths = depths[:3]
	}
	for _, depth := range depths {
		t.Run(fmt.Sprint(depth, " deep"), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.Person("alice")
			deepAgents(t, e.DB.Path(), "alice", depth)
			deepest := fmt.Sprint("bot", depth)
			sqlExec(t, e.DB.Path(), `INSERT INTO workspace_members (workspace_id, user_id, role, created_at)
				SELECT w.id, u.id, 'member', '2026-01-01T00:00:00.000Z' FROM workspaces w, users u WHERE w.slug = 'default' AND u.username = ?`, deepest)
			tok := e.Issue(e.Admin, map[string]any{"username": deepest})["token"].(string)
			session := agentSession(e, deepest)
			feed, _ := e.Calendar(tok, map[string]any{"title": "mine", "audience": "me"})
			e.credAuthorized(tok, deepest)
			if r := e.Browser(http.MethodGet, "/v1/me", session, "", nil); r.Status != http.StatusOK {
				t.Fatalf("the session of %s: %d %s", deepest, r.Status, r.Body)
			}
			if r := e.FetchFeed(feed, nil); r.Status != http.StatusOK {
				t.Fatalf("the feed of %s: %d %s", deepest, r.Status, r.Body)
			}
			if u := e.OK(http.StatusOK, http.MethodGet, "/v1/users/"+deepest, e.Admin, nil); u["responsible"] != "alice" {
				t.Errorf("%s answers for %s, want alice", u["responsible"], deepest)
			}
			e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", e.Admin, map[string]any{"active": false})
			t.Run("its credential is refused", func(t *testing.T) { e.sub(t).credRefused(tok) })
			t.Run("its session is refused", func(t *testing.T) {
				webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", session, "", nil), http.StatusUnauthorized, "unauthorized")
			})
			t.Run("its feed is gone", func(t *testing.T) {
				webtest.AssertProblem(t, e.sub(t).FetchFeed(feed, nil).Response, http.StatusNotFound, "not_found")
			})
			t.Run("the top agent cannot answer to it", func(t *testing.T) {
				e.sub(t).Problem(http.StatusConflict, "cycle", http.MethodPatch, "/v1/users/bot1", e.Admin, map[string]any{"answers_to": deepest})
			})
		})
	}
}

// TestWalksEndOnCycles: a cycle the API refuses to make, put in place
// in SQL, ends every walk. Tasks in a cycle belong to no tree: listing
// under them, trashing and restoring one answer; agents in a cycle have
// nobody to answer for them, so they are refused.
func TestWalksEndOnCycles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.CreateTask(e.Admin, map[string]any{"title": "loop a"})
	b := e.CreateTask(e.Admin, map[string]any{"title": "loop b", "parent": a["ref"]})
	sqlExec(t, e.DB.Path(), `UPDATE tasks SET parent_id = ? WHERE id = ?`, b["id"], a["id"])
	if n := e.listed(fmt.Sprintf("under=%d", int64(a["ref"].(float64)))); n != 2 {
		t.Fatalf("under a task of a cycle of two lists %d, want both", n)
	}
	e.OK(http.StatusOK, http.MethodDelete, tskPath(a), e.Admin, nil)
	e.OK(http.StatusOK, http.MethodPost, tskPath(a, "restore"), e.Admin, nil)
	e.Problem(http.StatusConflict, "cycle", http.MethodPost, tskPath(b, "move"), e.Admin, map[string]any{"parent": a["ref"]})

	e.Person("alice")
	deepAgents(t, e.DB.Path(), "alice", 3)
	tok := e.Issue(e.Admin, map[string]any{"username": "bot3"})["token"].(string)
	e.credAuthorized(tok, "bot3")
	sqlExec(t, e.DB.Path(), `UPDATE users SET answers_to = 'bot-3' WHERE id = 'bot-1'`)
	e.credRefused(tok)
	if u := e.OK(http.StatusOK, http.MethodGet, "/v1/users/bot3", e.Admin, nil); u["responsible"] != nil {
		t.Fatalf("%v answers for an agent in a cycle, want nobody", u["responsible"])
	}
	e.OK(http.StatusOK, http.MethodGet, "/v1/users?limit=50", e.Admin, nil)
}
