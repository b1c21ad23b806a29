package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"tend/app"
)

// TestTaskPageQueryCountFixed shows that a page of tasks is served by a
// fixed number of statements whatever its size: no query per row. It counts
// the statements the store runs (store.DB.QueryCount) while serving the same
// listing at limit 1, 5 and 200 over 240 tasks that carry tags, subtasks,
// assignees and blocks links, so every per-row field (tags, blocked,
// blocking, subtask counts, parent ref, assignee) has something to find.
func TestTaskPageQueryCountFixed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	admin := e.adminActor()
	for _, key := range []string{"qa", "qb"} {
		if _, err := e.Svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: key, Title: key}); err != nil {
			t.Fatal(err)
		}
	}
	var refs []int64
	for i := range 240 {
		in := app.TaskCreate{Title: fmt.Sprintf("task %d", i), Project: []string{"qa", "qb"}[i%2],
			Tags: []string{fmt.Sprintf("t%d", i%7), fmt.Sprintf("u%d", i%3)}}
		if i%4 == 3 {
			in.Project, in.Parent = "", app.FlexRef(strconv.FormatInt(refs[i-1], 10))
		}
		if i%5 == 0 {
			in.Assignee = "me"
		}
		if i%9 == 0 {
			in.Status = "done"
		}
		tk, err := e.Svc.CreateTask(ctx, admin, "", in)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, tk.Ref)
	}
	for i := 0; i+7 < len(refs); i += 6 {
		_, err := e.Svc.AddLinks(ctx, admin, "", app.LinkRequest{LinkType: "blocks",
			Target: app.FlexRef(strconv.FormatInt(refs[i+7], 10))}.Set("task", strconv.FormatInt(refs[i], 10)))
		if err != nil {
			t.Fatal(err)
		}
	}
	// A first request refreshes the credential's last use (one write a
	// minute), and a first listing fills the project-tree cache (one query
	// per scope revision); nothing after them should.
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?limit=1", e.Admin, nil)

	for _, query := range []string{"", "&include_completed=true", "&ready=true&to_act_on=true", "&include=links",
		"&order=-priority_score,title", "&project=qa&include_total=true"} {
		t.Run(query, func(t *testing.T) {
			e := e.sub(t)
			counts := map[int]int64{}
			for _, limit := range []int{1, 5, 200} {
				before := e.DB.QueryCount()
				page := e.OK(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/tasks?limit=%d%s", limit, query), e.Admin, nil)
				counts[limit] = e.DB.QueryCount() - before
				if n := len(page["items"].([]any)); n < min(limit, 50) {
					t.Fatalf("limit=%d answered only %d items; the comparison needs full pages", limit, n)
				}
			}
			if counts[1] == 0 || counts[1] != counts[5] || counts[5] != counts[200] {
				t.Fatalf("statements per page by limit: %v; want the same count for every size", counts)
			}
			t.Logf("%d statements per page, whatever its size", counts[200])
		})
	}
}
