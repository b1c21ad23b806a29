// Command davload is the load generator of bench/caldav.sh: the same
// CalDAV workload against tend and against Radicale (issue 36 §4).
//
//	davload seed-tend -url URL [-tasks 10000]               (token in TEND_AB_TOKEN)
//	davload seed-files -dir COLLECTION [-tasks 10000]
//	davload run -server NAME -url URL -col PATH -user U [-n 200] [-initial 5] [-round N] [-patch] [-out FILE]
//	davload report FILE...
//
// seed-tend creates the project "home" through tend's API and 10,000 tasks
// in it. seed-files writes the same tasks as a Radicale collection's files.
// run times, over one keep-alive client, a calendar-query of every VTODO
// with its data (the initial sync), an empty and a one-change
// sync-collection delta, and a PUT changing one task's SUMMARY; with
// -patch, an API PATCH of the same change, alternated request by request
// with the PUT so that both meet the same machine. The password (tend's
// token) comes from the environment (TEND_AB_TOKEN), never the command
// line. report prints p50/p99 per server and the ratios the issue's
// targets are about.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"tend/bench/benchmain"
)

func main() { benchmain.Run("davload", cli) }

const usage = `usage:
  davload seed-tend -url URL [-tasks N]            (token in TEND_AB_TOKEN)
  davload seed-files -dir COLLECTION [-tasks N]
  davload run -server NAME -url URL -col PATH -user U [-n N] [-initial N] [-round N] [-patch] [-out FILE]   (password in TEND_AB_TOKEN)
  davload report FILE...`

func cli(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "seed-tend":
		return cliSeedTend(ctx, args[1:], stderr)
	case "seed-files":
		return cliSeedFiles(args[1:], stderr)
	case "run":
		return cliRun(ctx, args[1:], stdout, stderr)
	case "report":
		return cliReport(args[1:], stdout, stderr)
	}
	fmt.Fprintln(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}
