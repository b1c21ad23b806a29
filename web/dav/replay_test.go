package dav_test

// Recorded request sequences of real CalDAV clients, replayed against the
// real router and store. Each file in testdata/replay is one client's
// sequence, reconstructed from its published behaviour (the file says
// where from); a Go test per file replays it and then asks the API what
// tend holds.
//
// The format, line by line:
//
//	# text                   a comment (outside a request's body)
//	>>> METHOD PATH          a request; the lines up to the first blank
//	Name: value              line are its headers, the lines after it
//	                         (up to <<<) its body, sent with CRLF ends
//	<<< STATUS[|STATUS...]   the status the answer must have (one of them)
//	has TEXT                 the answer's body contains TEXT
//	lacks TEXT               the answer's body does not contain TEXT
//	header NAME TEXT         the answer's header NAME contains TEXT
//	save VAR REGEXP          VAR is REGEXP's first group in the body, unescaped
//	save-header VAR NAME     VAR is the answer's header NAME
//
// {VAR} anywhere in a request or an expectation is replaced by VAR's value;
// {user} is the account's username and every request carries its Basic
// credentials.

import (
	"bufio"
	"fmt"
	"html"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// step is one request of a sequence and what its answer must hold.
type step struct {
	line    int
	method  string
	path    string
	headers []string // name, value pairs
	body    []string
	status  []string
	expect  [][2]string // directive and its argument
}

// readReplay reads a sequence file.
func readReplay(t *testing.T, name string) []step {
	t.Helper()
	file, err := os.Open("testdata/replay/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var steps []step
	var cur *step
	state := "" // "headers", "body", "expect"
	sc := bufio.NewScanner(file)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, ">>> "):
			method, path, _ := strings.Cut(strings.TrimPrefix(line, ">>> "), " ")
			steps = append(steps, step{line: n, method: method, path: path})
			cur, state = &steps[len(steps)-1], "headers"
		case cur == nil || state != "body" && strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "<<< "):
			cur.status, state = strings.Split(strings.TrimPrefix(line, "<<< "), "|"), "expect"
		case state == "headers" && line == "":
			state = "body"
		case state == "headers":
			name, value, _ := strings.Cut(line, ":")
			cur.headers = append(cur.headers, name, strings.TrimSpace(value))
		case state == "body":
			cur.body = append(cur.body, line)
		case state == "expect" && strings.TrimSpace(line) != "":
			directive, arg, _ := strings.Cut(line, " ")
			cur.expect = append(cur.expect, [2]string{directive, arg})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return steps
}

// replay runs a sequence file on f, failing at the first answer that does
// not hold what the file expects.
func (f *fix) replay(name string) {
	f.t.Helper()
	vars := map[string]string{"user": f.user}
	sub := func(s string) string {
		for k, v := range vars {
			s = strings.ReplaceAll(s, "{"+k+"}", v)
		}
		return s
	}
	for _, s := range readReplay(f.t, name) {
		headers := make([]string, len(s.headers))
		for i, h := range s.headers {
			headers[i] = sub(h)
		}
		body := ""
		if len(s.body) > 0 {
			body = sub(strings.Join(s.body, "\r\n")) + "\r\n"
		}
		a := f.dav(s.method, sub(s.path), f.user, f.admin, body, headers...)
		where := name + ":" + strconv.Itoa(s.line) + " " + s.method + " " + sub(s.path)
		ok := false
		for _, st := range s.status {
			ok = ok || strings.TrimSpace(st) == strconv.Itoa(a.status)
		}
		if !ok {
			f.t.Fatalf("%s: status %d, want %v\n%s", where, a.status, s.status, a.body)
		}
		for _, e := range s.expect {
			arg := sub(e[1])
			switch e[0] {
			case "has":
				if !strings.Contains(a.body, arg) {
					f.t.Fatalf("%s: answer lacks %q:\n%s", where, arg, a.body)
				}
			case "lacks":
				if strings.Contains(a.body, arg) {
					f.t.Fatalf("%s: answer has %q:\n%s", where, arg, a.body)
				}
			case "header":
				name, text, _ := strings.Cut(arg, " ")
				if !strings.Contains(a.header.Get(name), text) {
					f.t.Fatalf("%s: header %s is %q, want it to contain %q", where, name, a.header.Get(name), text)
				}
			case "save":
				v, re, _ := strings.Cut(e[1], " ")
				m := regexp.MustCompile(re).FindStringSubmatch(a.body)
				if m == nil {
					f.t.Fatalf("%s: nothing in the answer for %s (%s):\n%s", where, v, re, a.body)
				}
				vars[v] = html.UnescapeString(m[1])
			case "save-header":
				v, h, _ := strings.Cut(arg, " ")
				if vars[v] = a.header.Get(h); vars[v] == "" {
					f.t.Fatalf("%s: no %s header to save", where, h)
				}
			default:
				f.t.Fatalf("%s: unknown expectation %q", where, e[0])
			}
		}
	}
}

// replayRepeat replays a sequence file on a new instance with the project
// home, and answers the instance and the open occurrence of the repeating
// task titled title, which the sequence completed once.
func replayRepeat(t *testing.T, file, title string) (*fix, map[string]any) {
	f := newFix(t)
	f.home()
	f.replay(file)
	all := f.homeTasks()[title]
	if len(all) != 2 {
		t.Fatalf("%d occurrences of %q, want 2: %v", len(all), title, all)
	}
	next := f.open(title)
	for _, o := range all {
		if o["id"] != next["id"] && o["status"] != "done" {
			t.Errorf("the passed occurrence of %q is %v, want done", title, o["status"])
		}
	}
	return f, next
}

// TestReplayDAVx5TasksOrg replays DAVx5 syncing tasks.org: subtasks before
// their parent, and a repeating task completed by moving its DUE on.
func TestReplayDAVx5TasksOrg(t *testing.T) {
	f, plants := replayRepeat(t, "davx5-tasksorg.txt", "Water the plants")
	parent := f.open("Move house")
	if van := f.open("Book the big van"); van["parent_ref"] != parent["ref"] {
		t.Errorf("the subtask's parent is #%v, want #%v", van["parent_ref"], parent["ref"])
	}
	if _, kept := f.homeTasks()["Boxes from the shop"]; kept {
		t.Error("the deleted subtask is still listed")
	}
	if rule := fmt.Sprint(plants["repeat_rule"]); plants["due_at"] != "2026-03-09T00:00:00Z" || !strings.Contains(rule, "RRULE:FREQ=WEEKLY;BYDAY=MO") {
		t.Errorf("next occurrence: due %v, repeat %q", plants["due_at"], rule)
	}
}

// TestReplayThunderbird replays Thunderbird: discovery from OPTIONS, a
// repeating task in a zone, and an occurrence completed with an override.
func TestReplayThunderbird(t *testing.T) {
	_, next := replayRepeat(t, "thunderbird.txt", "Stand-up notes")
	if next["due_at"] != "2026-03-03T09:00:00Z" || next["timezone"] != "Europe/Berlin" || next["occurrence"] != 2.0 {
		t.Errorf("next occurrence: due %v in %v, occurrence %v", next["due_at"], next["timezone"], next["occurrence"])
	}
	if rule := fmt.Sprint(next["repeat_rule"]); !strings.HasPrefix(rule, "DTSTART;TZID=Europe/Berlin:") || !strings.Contains(rule, "FREQ=DAILY") {
		t.Errorf("repeat %q", rule)
	}
}

// TestReplayAppleReminders replays Apple Reminders: setup with MKCALENDAR
// at a UUID, a reminder in that new list, sync-collection, and a
// repeating reminder completed on its master.
func TestReplayAppleReminders(t *testing.T) {
	f, next := replayRepeat(t, "apple-reminders.txt", "Take vitamins")
	if next["due_at"] != "2026-03-03T00:00:00Z" || next["due_is_all_day"] != true {
		t.Errorf("next occurrence: due %v, all day %v", next["due_at"], next["due_is_all_day"])
	}
	p := f.api(http.MethodGet, "/v1/projects/reminders", f.admin, nil, http.StatusOK)
	if p["title"] != "Reminders" || !strings.EqualFold(fmt.Sprint(p["colour"]), "#1badf8") {
		t.Errorf("the list Reminders made: %v %v", p["title"], p["colour"])
	}
	items := f.api(http.MethodGet, "/v1/tasks?project=reminders", f.admin, nil, http.StatusOK)["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["title"] != "Buy milk" {
		t.Errorf("the tasks of the list Reminders made: %v", items)
	}
}

// TestReplayAppleAlarms replays Apple Reminders snoozing an alarm: every
// line of each alarm comes back as written, the alarm acknowledged no
// longer fires from tend, and the snooze, an alarm at an instant, does.
func TestReplayAppleAlarms(t *testing.T) {
	f := newFix(t)
	f.home()
	f.replay("apple-alarms.txt")
	ref := fmt.Sprint(f.open("Call mum")["ref"])
	want := `[{"before":"15m","fire_at":null},{"at":"2026-03-03T18:01:00Z","fire_at":"2026-03-03T18:01:00Z"}]`
	if got, _ := f.reminders(ref); got != want {
		t.Fatalf("reminders %s\nwant %s", got, want)
	}
	// A change made elsewhere does not bring the acknowledged firing back.
	f.api(http.MethodPatch, "/v1/tasks/"+ref, f.admin, map[string]any{"title": "Call mum back"}, http.StatusOK)
	if got, _ := f.reminders(ref); got != want {
		t.Fatalf("after a change of the title: reminders %s\nwant %s", got, want)
	}
}

// TestReplayThunderbirdAlarms replays Thunderbird dismissing an alarm: its
// ACKNOWLEDGED, X-MOZ-LASTACK and EMAIL alarm come back as written, and the
// reminder it dismissed no longer fires from tend.
func TestReplayThunderbirdAlarms(t *testing.T) {
	f := newFix(t)
	f.home()
	f.replay("thunderbird-alarms.txt")
	ref := fmt.Sprint(f.open("Send the invoice")["ref"])
	if got, _ := f.reminders(ref); got != `[{"before":"30m","fire_at":null}]` {
		t.Fatalf("reminders %s", got)
	}
}
