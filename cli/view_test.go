package cli

import "testing"

// viewSteps save, list through, list and remove views, and each refusal: a
// filter the listing refuses, a name in use, a view that is not there, and
// another person's view, private (not there) or shared (forbidden).
var viewSteps = []cliStep{
	{args: line("add", "Fix the gate #garden"), out: "added #1 Fix the gate\n  todo · inbox · #garden\n"},
	{args: line("add", "Sweep the yard"), out: "added #2 Sweep the yard\n  todo · inbox\n"},
	{args: line("view", "save", "Garden", "--tag", "garden", "--shared"), out: "saved \"Garden\"  -  order=-priority_score,due_at,ref&tag=garden  shared by admin\n"},
	{args: line("view", "save", "Mine", "--mine"), out: "saved \"Mine\"  -  assignee=me&order=-priority_score,due_at,ref\n"},
	{args: line("view", "save", "garden"), code: 4, err: "error: conflict: "},
	{args: line("view", "save", "x", "--status", "nope"), code: 1, err: "error: validation: "},
	{args: line("ls", "--view", "garden", "--format", "compact"), out: "#1  todo  inbox  Fix the gate\n"},
	{args: line("ls", "--view", "garden", "--tag", "x"), code: 1, err: "error: validation: "},
	{args: line("ls", "--view", "nope"), code: 3, err: "error: not_found: "},
	{args: line("view", "ls", "--format", "compact"), out: "\"Garden\"  1  order=-priority_score,due_at,ref&tag=garden   shared by admin\n" +
		"\"Mine\"    0  assignee=me&order=-priority_score,due_at,ref\n"},
	{args: line("view", "ls"), as: "bob", out: "NAME    TASKS  FILTERS\n" +
		"Garden  1      order=-priority_score,due_at,ref&tag=garden  shared by admin\n"},
	{args: line("view", "rm", "Garden"), as: "bob", code: 1, err: "error: forbidden: "},
	{args: line("view", "rm", "Mine"), as: "bob", code: 3, err: "error: not_found: "},
	{args: line("view", "rm", "Mine"), out: "removed \"Mine\"  -  assignee=me&order=-priority_score,due_at,ref\n"},
}

// TestCLIViews runs the view commands on the database file.
func TestCLIViews(t *testing.T) {
	t.Parallel()
	runSteps(t, newCLIMode(t), viewSteps)
}
