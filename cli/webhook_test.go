package cli

import "testing"

// TestCLIWebhooks runs the webhook commands on the database file: an empty
// list, and the log and removal of a webhook that is not there.
func TestCLIWebhooks(t *testing.T) {
	t.Parallel()
	runSteps(t, newCLIMode(t), []cliStep{
		{args: line("webhook", "ls"), out: "no webhooks\n"},
		{args: line("webhook", "log", "https://8.8.8.8/hook"), code: ExitNotFound, err: "error: not_found: no webhook you manage sends to https://8.8.8.8/hook"},
		{args: line("webhook", "rm", "wh_unknown"), code: ExitNotFound, err: "error: not_found"},
		{args: line("webhook", "rm", "https://8.8.8.8/hook"), code: ExitNotFound, err: "error: not_found: no webhook you manage sends to https://8.8.8.8/hook"},
	})
}
