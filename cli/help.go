package cli

import "github.com/spf13/cobra"

// workCmds are the terminal commands (tend --help lists them by name).
func workCmds(env *Env, dbPath *string) []*cobra.Command {
	return []*cobra.Command{
		newAddCmd(env, dbPath), newLsCmd(env, dbPath), newTodayCmd(env, dbPath), newShowCmd(env, dbPath), newSearchCmd(env, dbPath),
		newClaimCmd(env, dbPath), newReleaseCmd(env, dbPath), newDoneCmd(env, dbPath), newSkipCmd(env, dbPath),
		newReopenCmd(env, dbPath), newEditCmd(env, dbPath), newCommentCmd(env, dbPath), newLinkCmd(env, dbPath),
		newRmCmd(env, dbPath), newTrashCmd(env, dbPath), newUntrashCmd(env, dbPath),
		newDocCmd(env, dbPath), newOpenCmd(env, dbPath), newProjectCmd(env, dbPath), newViewCmd(env, dbPath), newWebhookCmd(env, dbPath), newInviteCmd(env, dbPath), newLoginCmd(env), newLogoutCmd(env), newWhoamiCmd(newWork(env, dbPath)),
		newWatchCmd(env, dbPath), newWaitCmd(env, dbPath),
	}
}

// HelpTopics are what tend help TOPIC explains beyond one command. Every
// example in them (a line beginning "  tend " or piping into tend) is run
// by TestHelpExamples, as each command's own examples are.
func HelpTopics() []*cobra.Command {
	return []*cobra.Command{
		{
			Use:   "local",
			Short: "Where the commands work: the database file, or a server",
			Long: `With no server configured, tend add, ls, done and the others work on the
database file itself (--db, TEND_DB, else ~/.local/share/tend/tend.db,
which the first command creates), through the same code the server runs.
No server needs to be running, and one may be: the file is shared safely
(SQLite orders the writes; the server's caches follow every change, made
by it or not). On the file you act as the oldest active administrator, or
as the account --user (TEND_USER) names: whoever can open the file has
every account's authority already (tend token issue works there too).

  tend whoami
  tend --db ~/.local/share/tend/tend.db ls

tend login URL sends the commands to a server instead, with a credential
it reads from stdin, asking for it at a terminal (tend logout undoes it);
TEND_URL with TEND_TOKEN does the same for one shell, and --db sends one
command to the file whatever is configured.

  tend token issue --user alice --title laptop | tend login http://127.0.0.1:8421
  tend whoami
  tend logout`,
		},
		{
			Use:   "output",
			Short: "Tables, JSON and compact lines; dates, colour",
			Long: `Every command prints for people by default: aligned tables, dates relative
to now in your local zone ("today 17:00", "tomorrow", "in 3 days", "2 days
ago"), overdue dues in red. Colour is used only on a terminal, never when
NO_COLOR is set or TERM is dumb.

--json prints the API's own JSON: the very record GET /v1/tasks/{ref}
answers, the listing's envelope of items and page, the agenda.
--format compact prints one aligned line per task, as MCP tools and
format=compact give them: ref, status, project, title, who has it, due.

  tend ls --json
  tend ls --format compact
  NO_COLOR=1 tend today`,
		},
		{
			Use:   "exit-status",
			Short: "What the exit status says, and how errors are printed",
			Long: `0   done
1   refused or failed: the message says why
2   the command line is wrong: an unknown flag, a missing argument, flags
    that ask for opposite things; nothing was sent
3   not found: no such task or document (or one you may not see), nothing
    ready to claim
4   a conflict: a claim somebody else holds, a version that moved on, a
    link that exists already

An error is one line on stderr: "error: ", the stable code the API uses
(GET /v1/meta lists them), what was wrong, naming the flag, and how to get
past it (in brackets, the command that does, where there is one). Nothing
is written when a command is refused.

  tend show 1 || echo "exit status $?"`,
		},
		{
			Use:   "agents",
			Short: "The agent's loop at a shell: claim, work, done with verification, finding",
			Long: `An agent with a shell works the loop in three commands, reading a few
hundred bytes in compact form (docs/agent.md has the figure):

  tend claim next --format compact
  tend done 1 --verify "go test ./... green" --passed --commit 3f2a9c1 --format compact
  echo "The flaky test waited on a real clock." | tend doc new --type finding --title "Flaky test" --link 1 --format compact

tend show REF reads what binds a task (its governing decisions and specs),
tend comment REF TEXT leaves notes on the way. Give the agent its own
credential (tend token issue --user claude --agent-of alice) and
TEND_URL/TEND_TOKEN, so its work is its own.`,
		},
	}
}

func addHelpTopics(root *cobra.Command) {
	for _, t := range HelpTopics() {
		root.AddCommand(t)
	}
}
