package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestCLIManyTasksAtOnce: tend edit and tend done take several refs and
// ranges, and make the change to all of them in one request, or to none.
func TestCLIManyTasksAtOnce(t *testing.T) {
	t.Parallel()
	m := seededCLI(t)
	if _, errOut, code := m.run(t, "", "", "add", "Renew the domain"); code != 0 {
		t.Fatal(errOut)
	}
	tags := func(ref string) string {
		t.Helper()
		task := m.e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, m.e.Admin, nil)
		return fmt.Sprint(task["tags"])
	}
	out, errOut, code := m.run(t, "", "", "edit", "1-2", "#4", "--tag", "q4")
	if code != 0 || out != "updated #1 Call the bank\n  todo · inbox · due tomorrow 09:00 · #finance #q4 · !4\n"+
		"updated #2 Fix the login bug\n  todo · web · due in 4 days · #auth #q4 · blocked\n"+
		"updated #4 Renew the domain\n  todo · inbox · #q4\n" {
		t.Fatalf("edit 1-2 #4: exit %d\n%s%s", code, out, errOut)
	}
	before := m.newest(t)
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"edit", "1", "99", "--tag", "lost"}, 3, "error: not_found: task 99: no such task ("},
		{[]string{"edit", "1", "2", "--tag", "x", "--importance", "2"}, 2, "error: several tasks take one change at a time"},
		{[]string{"edit", "1", "2", "--title", "Same"}, 2, "error: --title changes one task at a time"},
		{[]string{"edit", "1", "2"}, 2, "error: several tasks take one change at a time"},
		{[]string{"edit", "3-1", "--tag", "x"}, 2, `error: "3-1" is no range of refs`},
		{[]string{"edit", "1", "2", "--importance", "9"}, 1, "error: validation: --importance: "},
		{[]string{"done", "1", "2", "--verify", "checked", "--passed"}, 2, "error: a verification is for one task"},
		{[]string{"done", "1", "3"}, 3, "error: not_found: task 3: no such task ("},
	} {
		out, errOut, code := m.run(t, "", "", c.args...)
		if code != c.code || out != "" || !strings.HasPrefix(errOut, c.err) {
			t.Errorf("tend %s: exit %d, %q %q; want %d, %q", strings.Join(c.args, " "), code, out, errOut, c.code, c.err)
		}
	}
	if m.newest(t) != before {
		t.Fatal("a refused change of several tasks wrote something")
	}
	if out, errOut, code := m.run(t, "", "", "edit", "1", "--untag", "q4", "--json"); code != 0 || !strings.Contains(out, `"count":1`) {
		t.Fatalf("edit 1 --untag: exit %d\n%s%s", code, out, errOut)
	}
	if got := tags("1"); got != "[finance]" {
		t.Errorf("#1 tags %s", got)
	}
	out, errOut, code = m.run(t, "", "", "done", "2", "4", "--json")
	var res struct {
		Count int `json:"count"`
		Tasks []struct {
			Ref        int  `json:"ref"`
			IsComplete bool `json:"is_complete"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || res.Count != 2 || !res.Tasks[0].IsComplete || res.Tasks[1].Ref != 4 {
		t.Fatalf("done 2 4: exit %d %v\n%s%s", code, err, out, errOut)
	}
}
