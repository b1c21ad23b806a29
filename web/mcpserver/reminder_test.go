package mcpserver_test

import (
	"testing"

	"tend/web/webtest"
)

// service_add reads reminders from the line and service_update replaces
// them from text, an empty text clearing them; a word that is none is
// refused.
func TestMCPReminders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.Connect(t, e.Admin, webtest.EraHandshake)
	r := m.OK("service_add", map[string]any{"text": "Call the bank 2030-05-06 10:00 remind 30m before"})
	task := r.Structured["task"].(map[string]any)
	if rs := task["reminders"].([]any); len(rs) != 1 || rs[0].(map[string]any)["before"] != "30m" {
		t.Fatalf("service_add read %v", task["reminders"])
	}
	ref := task["ref"]
	r = m.OK("service_update", map[string]any{"ref": ref, "reminders": "1h, 2030-05-06T06:00:00Z"})
	if rs := r.Structured["task"].(map[string]any)["reminders"].([]any); len(rs) != 2 || rs[1].(map[string]any)["at"] != "2030-05-06T06:00:00Z" {
		t.Fatalf("service_update set %v", rs)
	}
	m.Refused("validation", "service_update", map[string]any{"ref": ref, "reminders": "soon"})
	r = m.OK("service_update", map[string]any{"ref": ref, "reminders": ""})
	if rs := r.Structured["task"].(map[string]any)["reminders"].([]any); len(rs) != 0 {
		t.Fatalf("'' left %v", rs)
	}
}
