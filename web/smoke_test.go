package web_test

import (
	"net/http"
	"testing"
)

func TestMeAnswersTheAdministrator(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	if me["user"].(map[string]any)["username"] != "admin" {
		t.Fatalf("got %v", me["user"])
	}
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", "", nil)
}
