package cli

import "testing"

// trashSteps walk the trash at the terminal: rm (saying how many subtasks
// go along), trash, untrash, rm --forever for an administrator only, and
// each refusal.
var trashSteps = []cliStep{
	{args: line("add", "Paint the shed"), out: "added #1 Paint the shed\n  todo · inbox\n"},
	{args: line("add", "Buy paint", "--parent", "1"), out: "added #2 Buy paint\n  todo · inbox\n"},
	{args: line("add", "Sweep"), out: "added #3 Sweep\n  todo · inbox\n"},
	{args: line("doc", "new", "--type", "note", "--title", "Colours"), stdin: "green\n", out: "wrote #4 Colours\n  note · current · inbox · version 1\n"},
	{args: line("trash"), out: "the trash is empty\n"},
	{args: line("rm", "1", "4"), out: "trashed #1 Paint the shed, with its 1 subtask\ntrashed #4 Colours (document)\n"},
	{args: line("rm", "99"), code: 3, err: "error: not_found: "},
	{args: line("rm"), code: 2, err: "error: requires at least 1 arg(s), only received 0"},
	{args: line("trash", "--format", "compact"), out: "#4  document  inbox  Colours         2026-03-02T09:00:00Z\n" +
		"#2  task      inbox  Buy paint       2026-03-02T09:00:00Z\n#1  task      inbox  Paint the shed  2026-03-02T09:00:00Z\n"},
	{args: line("untrash", "4"), out: "restored #4 Colours (document)\n"},
	{args: line("untrash", "3"), code: 3, err: "error: not_found: "},
	{args: line("rm", "--forever", "3"), code: 4, err: "error: not_in_trash: "},
	{args: line("rm", "--forever", "1"), as: "bob", code: 1, err: "error: forbidden: "},
	{args: line("rm", "--forever", "1", "--json"), out: `[{"entity_type":"task","ref":1,"title":"Paint the shed","along":1}]` + "\n"},
	{args: line("trash", "--json"), out: `{"tasks":{"items":[],"page":{"has_more":false,"held_back":null,"limit":500,"next_cursor":null,"total":null,"unread":null}},` +
		`"documents":{"items":[],"page":{"has_more":false,"held_back":null,"limit":500,"next_cursor":null,"total":null,"unread":null}}}` + "\n"},
	{args: line("untrash", "1"), code: 3, err: "error: not_found: "},
}

// TestCLITrash runs trashSteps on the database file.
func TestCLITrash(t *testing.T) {
	t.Parallel()
	runSteps(t, newCLIMode(t), trashSteps)
}
