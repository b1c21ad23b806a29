package cli

import "testing"

// projectSteps start, list, show, change, archive and reopen projects, and
// each refusal: a key the API refuses, a project that is not there, an
// edit that changes nothing, a private project another person cannot see,
// and a task filed in a project not yet started (+key in its line), which
// names the command that starts it.
var projectSteps = []cliStep{
	{args: line("add", "Plant beans +veg"), code: 1,
		err: "error: validation: --project: no such project: veg (start it with: tend project add veg)\n"},
	{args: line("project", "add", "veg", "--title", "Vegetables"), out: "started veg Vegetables\n  Active\n"},
	{args: line("project", "add", "beds", "--parent", "veg", "--private"), out: "started veg/beds beds\n  Active · private\n"},
	{args: line("project", "add", "veg"), code: 4, err: "error: conflict: "},
	{args: line("project", "add", "Bad Key"), code: 1, err: "error: validation: KEY: a project key is"},
	{args: line("project", "add", "x", "--parent", "nope"), code: 1, err: "error: validation: --parent: "},
	{args: line("project", "add"), code: 2, err: "error: accepts 1 arg(s), received 0 (tend project add --help shows the usage)\n"},
	{args: line("add", "Plant beans +veg"), out: "added #1 Plant beans\n  todo · veg\n"},
	{args: line("project", "ls"), out: "KEY     STATUS  TITLE\n" +
		"inbox   Active  Inbox\n" +
		"veg     Active  Vegetables\n" +
		"  beds  Active  beds        private\n"},
	{args: line("project", "ls"), as: "bob", out: "KEY    STATUS  TITLE\n" +
		"inbox  Active  Inbox\n" +
		"veg    Active  Vegetables\n"},
	{args: line("project", "show", "beds"), as: "bob", code: 3,
		err: "error: not_found: no such project (tend project ls lists the projects you see)\n"},
	{args: line("project", "show", "veg", "--format", "compact"), out: "veg  active  Vegetables\n\n#1  todo  veg  Plant beans\n"},
	{args: line("project", "edit", "veg", "--description", "Beds and paths"), out: "changed veg Vegetables\n  Active\n"},
	{args: line("project", "show", "veg"), out: "veg Vegetables\n  Active\n\nBeds and paths\n\n" +
		"REF  STATUS  PROJECT  TITLE        WHO  DUE\n" +
		"#1   todo    veg      Plant beans\n"},
	{args: line("project", "edit", "veg"), code: 2, err: "error: nothing to change: give --title, --description, --parent, --private or --public\n"},
	{args: line("project", "edit", "veg", "--private", "--public"), code: 2, err: "error: --private and --public ask for opposite things: give one\n"},
	{args: line("project", "edit", "nope", "--title", "x"), code: 3, err: "error: not_found: no such project (tend project ls lists the projects you see)\n"},
	{args: line("project", "edit", "beds", "--parent", "", "--public", "--title", "Raised beds"), out: "changed beds Raised beds\n  Active\n"},
	{args: line("project", "archive", "beds"), out: "archived beds Raised beds\n  Completed\n"},
	{args: line("project", "ls", "--format", "compact"), out: "beds   completed  Raised beds\ninbox  active     Inbox\nveg    active     Vegetables\n"},
	{args: line("project", "reopen", "beds", "--format", "compact"), out: "beds  active  Raised beds\n"},
	{args: line("project", "archive", "nope"), code: 3, err: "error: not_found: "},
}

// TestCLIProjects runs the project commands on the database file.
func TestCLIProjects(t *testing.T) {
	t.Parallel()
	runSteps(t, newCLIMode(t), projectSteps)
}
