package web_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"tend/web/webtest"
)

// breakTable drops a table under the running service, from a connection of
// its own, so the next statement that reads it fails the way a damaged or
// unreadable database would: with an error that is not "not found".
func (e *env) breakTable(table string) {
	e.T.Helper()
	db, err := sql.Open("sqlite", "file:"+e.DB.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		e.T.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), "DROP TABLE "+table); err != nil {
		e.T.Fatal(err)
	}
}

// assertInternalLogged checks that a store failure answered 500 internal and
// that the server logged it with its cause.
func assertInternalLogged(t *testing.T, e *env, r webtest.Response, cause string) {
	t.Helper()
	webtest.AssertProblem(t, r, http.StatusInternalServerError, "internal")
	if strings.Contains(string(r.Body), cause) {
		t.Errorf("the cause %q reached the client:\n%s", cause, r.Body)
	}
	if logs := e.LogText(); !strings.Contains(logs, cause) {
		t.Errorf("the log does not carry the cause %q:\n%s", cause, logs)
	}
}

// TestStoreFailureIsInternal covers each class of site that turns a store
// error into a refusal: only the store's not-found becomes not_found (or a
// validation problem naming the field); any other failure answers 500
// internal and is logged with its cause.
func TestStoreFailureIsInternal(t *testing.T) {
	t.Parallel()
	// A missing row answers not_found; the same PATCH of a row that exists,
	// once its table is broken, answers 500.
	for _, c := range []struct {
		name, table string
		body        map[string]any
		create      func(e *env) string // the id of a row in table
	}{
		{"entity by id", "tags", map[string]any{"description": "x"}, func(e *env) string {
			return e.OK(http.StatusCreated, http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": "garden"})["id"].(string)
		}},
		{"item location", "comments", map[string]any{"body": "x"}, func(e *env) string {
			task := e.CreateTask(e.Admin, map[string]any{"title": "weed"})
			return e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+task["id"].(string)+"/comments", e.Admin, map[string]any{"body": "soon"})["id"].(string)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			id := c.create(e)
			e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/"+c.table+"/"+uuid.NewString(), e.Admin, c.body)
			e.breakTable(c.table)
			r := e.Do(http.MethodPatch, "/v1/"+c.table+"/"+id, e.Admin, c.body)
			assertInternalLogged(t, e, r, "no such table: "+c.table)
		})
	}
	t.Run("reference in a request", func(t *testing.T) {
		e := newEnv(t)
		task := e.CreateTask(e.Admin, map[string]any{"title": "weed"})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?parent=999999", e.Admin, nil)
		e.breakTable("tasks")
		r := e.Do(http.MethodGet, fmt.Sprintf("/v1/tasks?parent=%v", task["ref"]), e.Admin, nil)
		assertInternalLogged(t, e, r, "no such table: tasks")
	})
}
