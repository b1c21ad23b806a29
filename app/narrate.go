package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Telling is what Narrate needs besides the event to say it as people do:
// who acted, by name, the labels of the statuses the event names by key,
// and the zone its dates are read in (UTC when nil).
type Telling struct {
	Actor    string            // the actor's username; "" for the system or an account gone
	Statuses map[string]string // status key → label; a key it lacks is said as it is
	Zone     *time.Location
	// Projects names the projects a project's move may name: id or key →
	// path. A project it lacks is said as "another project".
	Projects map[string]string
	project  bool // the event is a project's: its parent is a project
}

// Narrate tells one event of an item's history as a sentence, from the
// item's side: "alice moved this to Done", "claude claimed this for 30
// minutes", "bob renamed this to “Water the plants” and set the due date to
// Fri 6 Mar 2026". It is the one place events become sentences; the
// journal's Change.Said stays the per-field phrase a program can match. A
// field it has no words for is said as Change.Said says it.
func Narrate(e Event, t Telling) string {
	who := t.Actor
	switch {
	case who == "" && e.ActorUserID == "":
		who = "tend"
	case who == "":
		who = "someone"
	}
	if t.Zone == nil {
		t.Zone = time.UTC
	}
	t.project = e.EntityType == "project"
	return who + " " + t.what(e)
}

// what is the sentence after its subject.
func (t Telling) what(e Event) string {
	c := e.Changes
	str := func(k string) string { return phrase(changeValue(c[k])) }
	num := func(k string) string { return str(k) }
	along := ""
	if v, ok := c["with"]; ok {
		along = " along with #" + phrase(changeValue(v))
	}
	switch e.Action {
	case "task.created", "document.created":
		if _, ok := c["after"]; ok {
			return "brought this as the next occurrence after #" + num("after")
		}
		return "created this"
	case "project.created":
		return "created this project"
	case "task.completed":
		return "completed this" + along
	case "task.skipped":
		return "skipped this occurrence"
	case "task.claimed":
		return "claimed this for " + minutes(c["minutes"])
	case "task.claim_renewed":
		return "renewed the claim for " + minutes(c["minutes"])
	case "task.released":
		return "released the claim of " + str("holder")
	case "task.verified":
		verdict := "a failing check"
		if c["passed"] == true {
			verdict = "a passing check"
		}
		if s := changeValue(c["summary"]); s != nil && *s != "" {
			return "recorded " + verdict + ": " + *s
		}
		return "recorded " + verdict
	case "task.deleted", "document.deleted", "project.deleted":
		return "moved this to the trash" + along
	case "task.restored", "document.restored", "project.restored":
		return "restored this from the trash" + along
	case "link.created":
		return "added a link: " + linkWords(c)
	case "link.deleted":
		if _, ok := c["direction"]; !ok {
			// A removal does not record which way the link ran.
			return "removed the " + strings.ReplaceAll(str("link_type"), "_", " ") + " link with #" + num("other")
		}
		return "removed a link: " + linkWords(c)
	case "comment.created":
		return "commented"
	case "comment.updated":
		return "edited a comment"
	case "comment.deleted":
		return "withdrew a comment"
	case "project.shared":
		return "shared this project with " + str("username")
	case "project.unshared":
		return "stopped sharing this project with " + str("username")
	case "project.role_set":
		return "gave " + str("username") + " the " + str("role") + " role in this project"
	case "project.role_removed":
		return "took away the role " + str("username") + " had in this project"
	}
	if clauses := t.clauses(c); len(clauses) > 0 {
		return joinClauses(clauses) + along
	}
	return strings.ReplaceAll(strings.TrimPrefix(e.Action[strings.IndexByte(e.Action, '.')+1:], "."), "_", " ") + " this" + along
}

// clauses says each field an update changed, in the order of taskFields,
// which holds the words of a document's and a project's fields too.
func (t Telling) clauses(c map[string]any) []string {
	var out []string
	done := map[string]bool{"with": true, "applies_to": true}
	say := func(field, s string) {
		done[field] = true
		if s != "" {
			out = append(out, s)
		}
	}
	for _, f := range taskFields {
		if v, ok := c[f.name]; ok && !f.alone {
			say(f.name, t.clause(f, v, c))
		}
	}
	for _, f := range taskFields {
		if v, ok := c[f.name]; ok && f.alone && len(out) == 0 {
			say(f.name, t.clause(f, v, c))
		}
		done[f.name] = done[f.name] || f.alone
	}
	var rest []Change
	for _, ch := range changed(c) {
		if !done[ch.Field] {
			rest = append(rest, ch)
		}
	}
	for _, ch := range rest {
		out = append(out, "changed "+ch.Said)
	}
	if len(out) > 0 {
		switch c["applies_to"] {
		case "this_one":
			out[len(out)-1] += " (this occurrence only)"
		case "from_now_on":
			out[len(out)-1] += " (from now on)"
		}
	}
	return out
}

// clause says one changed field in its words (taskField.words); v is its
// {"from", "to"} pair or the value set.
func (t Telling) clause(f taskField, v any, all map[string]any) string {
	c := said{v: v, from: v, to: v, all: all}
	if pair, ok := v.(map[string]any); ok && hasKey(pair, "from") && hasKey(pair, "to") {
		c.from, c.to = pair["from"], pair["to"]
	}
	c.toS, c.fromS = changeValue(c.to), changeValue(c.from)
	c.empty = c.toS == nil || *c.toS == ""
	return f.words(t, c)
}

// projectParent says where a project moved: the top level (""), under a
// project named, or, for one the reader may not see (null) or not named,
// under another project.
func (t Telling) projectParent(to any) string {
	s, ok := to.(string)
	switch {
	case ok && s == "":
		return "moved this to the top level"
	case ok && t.Projects[s] != "":
		return "moved this under " + t.Projects[s]
	}
	return "moved this under another project"
}

func (t Telling) status(key string) string {
	if l, ok := t.Statuses[key]; ok && l != "" {
		return l
	}
	return key
}

// day writes an instant an event recorded as a day, and the time on it
// unless it is all-day (said so by the event, or midnight in the zone).
func (t Telling) day(stamp string, allDay any) string {
	at, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return stamp
	}
	at = at.In(t.Zone)
	if allDay == nil {
		h, m, s := at.Clock()
		allDay = h == 0 && m == 0 && s == 0
	}
	if pair, ok := allDay.(map[string]any); ok {
		allDay = pair["to"]
	}
	if allDay == true {
		return at.Format("Mon 2 Jan 2006")
	}
	return at.Format("Mon 2 Jan 2006 15:04")
}

// minutes says a number of minutes as people do: "30 minutes", "2 hours",
// "1 hour 30 minutes".
func minutes(v any) string {
	f, ok := v.(float64)
	if !ok {
		if n, isInt := v.(int); isInt {
			f, ok = float64(n), true
		}
	}
	if !ok {
		return phrase(changeValue(v)) + " minutes"
	}
	n := int(f)
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return strconv.Itoa(n) + " " + unit + "s"
	}
	switch {
	case n > 0 && n%(24*60) == 0:
		return plural(n/(24*60), "day")
	case n < 60:
		return plural(n, "minute")
	case n%60 == 0:
		return plural(n/60, "hour")
	}
	return plural(n/60, "hour") + " " + plural(n%60, "minute")
}

// tagWords says which tags an update added and which it took off.
func tagWords(from, to any) string {
	names := func(v any) []string {
		var out []string
		if xs, ok := v.([]any); ok {
			for _, x := range xs {
				if s, ok := x.(string); ok {
					out = append(out, s)
				}
			}
		}
		return out
	}
	before, after := names(from), names(to)
	var added, removed []string
	for _, n := range after {
		if !slices.ContainsFunc(before, func(b string) bool { return strings.EqualFold(b, n) }) {
			added = append(added, "#"+n)
		}
	}
	for _, n := range before {
		if !slices.ContainsFunc(after, func(a string) bool { return strings.EqualFold(a, n) }) {
			removed = append(removed, "#"+n)
		}
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "tagged this "+strings.Join(added, " "))
	}
	if len(removed) > 0 {
		parts = append(parts, "took off "+strings.Join(removed, " "))
	}
	if len(parts) == 0 {
		return "changed the tags"
	}
	return strings.Join(parts, " and ")
}

// linkWords says a link event's link from the item's side: "this blocks
// #12" or "#12 blocks this".
func linkWords(c map[string]any) string {
	kind := strings.ReplaceAll(phrase(changeValue(c["link_type"])), "_", " ")
	other := "#" + phrase(changeValue(c["other"]))
	if c["direction"] == "incoming" {
		return fmt.Sprintf("%s %s this", other, kind)
	}
	return fmt.Sprintf("this %s %s", kind, other)
}

// joinClauses joins clauses as a sentence does: "a", "a and b", "a, b and c".
func joinClauses(cs []string) string {
	if len(cs) == 1 {
		return cs[0]
	}
	return strings.Join(cs[:len(cs)-1], ", ") + " and " + cs[len(cs)-1]
}
