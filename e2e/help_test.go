package e2e

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"tend/cli"
)

// helpSeed is what the help examples assume exists, made before they run:
// a project web; #1 and #4 repeating tasks, #2 and #3 tasks in web, #5 a
// decision; a view "Web work".
const helpSeed = `curl -H "Authorization: Bearer tend_k3j9x2ab7q_…" -H 'Content-Type: application/json' -d '{"key":"web","title":"Web site"}' http://127.0.0.1:8421/v1/projects
tend add "Pay the rent every month on the 1st"
tend add "Fix the login bug !5" --project web
tend add "Update the docs" --project web
tend add "Water the plants every day"
echo "Sessions live in SQLite." | tend doc new --type decision --title "Sessions" --project web
tend view save "Web work" --project web`

// helpExamples are the example command lines of the terminal commands and
// of the help topics (the lines indented by two spaces that run tend), in
// the order tend help lists them.
func helpExamples(t *testing.T) []docBlock {
	root := cli.NewRoot(io.Discard, io.Discard, cli.ProcessEnv("", nil), nil)
	var blocks []docBlock
	add := func(c *cobra.Command, text string) {
		for _, l := range strings.Split(text, "\n") {
			indented := strings.HasPrefix(l, "  ")
			if l = strings.TrimSpace(l); indented && (strings.HasPrefix(l, "tend ") || strings.Contains(l, "| tend ") || strings.HasPrefix(l, "NO_COLOR=1 tend ")) {
				blocks = append(blocks, docBlock{file: "tend help " + c.Name(), line: len(blocks) + 2, info: "sh", text: l})
			}
		}
	}
	var walk func(c *cobra.Command, work bool)
	walk = func(c *cobra.Command, work bool) {
		if work && c.Runnable() && c.Example == "" {
			t.Errorf("tend %s has no example", c.CommandPath())
		}
		if work {
			add(c, c.Example)
		}
		for _, sub := range c.Commands() {
			walk(sub, work || sub.GroupID == "work")
		}
	}
	for _, c := range root.Commands() {
		if c.GroupID == "work" {
			walk(c, true)
		}
	}
	for _, topic := range cli.HelpTopics() {
		n := len(blocks)
		add(topic, topic.Long)
		if len(blocks) == n {
			t.Errorf("the help topic %s has no example", topic.Name())
		}
	}
	return blocks
}

// TestHelpExamples runs every example of tend help, in order, against a
// fresh tend serve on the default database (as TestDocsCommands runs the
// documents' commands), on the seed helpSeed makes: the terminal commands
// work on that file beside the server, and through it after tend login.
func TestHelpExamples(t *testing.T) {
	t.Parallel()
	requireShellTools(t)
	blocks := append([]docBlock{{file: "the seed", line: 1, info: "sh", text: helpSeed}}, helpExamples(t)...)
	runDocBlocks(t, blocks)
}

// requireShellTools skips the test without bash and curl, or fails it where
// TEND_DOCS_REQUIRED says they must be there (CI).
func requireShellTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("TEND_DOCS_REQUIRED") == "1" {
				t.Fatalf("%s is needed to run the examples: %v", tool, err)
			}
			t.Skipf("%s is not installed (TEND_DOCS_REQUIRED=1 makes this a failure)", tool)
		}
	}
}

// TestExamplesKeepSecretsOffTheCommandLine: no command the documents or
// tend help show gives a credential as an argument, where every user of
// the machine sees it in ps and the shell keeps it in its history; they
// give it on stdin (tend login reads it from there) or in the environment.
func TestExamplesKeepSecretsOffTheCommandLine(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := helpExamples(t)
	for _, f := range append([]string{"README.md", "web/docs/agent.md"}, files...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bs, _ := parseBlocks(f, string(src))
		blocks = append(blocks, bs...)
	}
	argv := regexp.MustCompile(`--token[= ]+\S`)
	for _, b := range blocks {
		if b.info == "sh" && argv.MatchString(b.text) {
			t.Errorf("%s:%d gives a credential on the command line: %s", b.file, b.line, argv.FindString(b.text))
		}
	}
}
