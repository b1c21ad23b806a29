package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"tend/web/wire"
)

// Following the change feed (issue 35 §1): tend watch prints what commits,
// tend wait waits for a task to reach a state. Both read GET /v1/changes
// forward by seq. On a server each read is a long poll (wait=serverWait), answered as soon as
// an event commits. On the file no server is there to be woken by other
// processes' writes, so each read answers at once and the next comes
// after filePoll.
const (
	serverWait = 30
	filePoll   = time.Second
	// retryMost is the longest pause between tries after the connection
	// to a server dropped; the pauses double from retryFirst.
	retryFirst = 500 * time.Millisecond
	retryMost  = 30 * time.Second
)

// follower reads the change feed forward from a seq, page after page,
// through dropped connections.
type follower struct {
	env    *Env
	s      *session
	q      url.Values // the filters: action, project
	next   int64      // the seq to read on from
	stderr io.Writer
}

// feedEnd is the seq the next event will have at the least: one past the
// newest the caller may see, 1 when it sees none.
func feedEnd(ctx context.Context, c Client) (int64, error) {
	p, err := c.Changes(ctx, url.Values{"limit": {"1"}})
	if err != nil || len(p.Items) == 0 {
		return 1, err
	}
	return p.Items[len(p.Items)-1].Seq + 1, nil
}

// page reads the next page: the events from f.next on, waiting for one
// when there is none yet. A connection that drops is tried again from the
// same seq after a pause that doubles; a refusal ends it. It answers no
// events and no error when ctx ends.
func (f *follower) page(ctx context.Context) ([]wire.Event, error) {
	pause := time.Duration(0)
	for {
		q := cloneValues(f.q)
		q.Set("since", strconv.FormatInt(f.next, 10))
		if !f.s.file {
			q.Set("wait", strconv.Itoa(serverWait))
		}
		p, err := f.s.c.Changes(f.requestContext(ctx), q)
		var refused *Problem
		switch {
		case ctx.Err() != nil:
			return nil, nil
		case errors.As(err, &refused):
			return nil, err
		case err != nil:
			pause = min(max(2*pause, retryFirst), retryMost)
			fmt.Fprintf(f.stderr, "tend: lost %s (%v); reading on from seq %d in %s\n", f.s.c.Where(), err, f.next, pause)
			if f.env.wait(ctx, pause) != nil {
				return nil, nil
			}
			continue
		}
		if n := len(p.Items); n > 0 {
			f.next = p.Items[n-1].Seq + 1
		} else if f.s.file && f.env.wait(ctx, filePoll) != nil {
			return nil, nil
		}
		return p.Items, nil
	}
}

// requestContext is the context of a request that ctx's end should not
// cut: on the file a read is quick, and one cut halfway is reported as the
// file's internal error.
func (f *follower) requestContext(ctx context.Context) context.Context {
	if f.s.file {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

func newWatchCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	var since int64
	var actions, project string
	var count int
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Print events as they commit",
		Long: `Print the workspace's events as they commit, one line each (with --json,
one JSON object a line, as GET /v1/changes gives them), until interrupted
or --count events have been printed. Without --since it starts at the end
of the feed: only what commits from now on.

On a server each read waits for the next event (a long poll), so an event
is printed as soon as it commits; a dropped connection is tried again and
reading goes on from the last seq printed, so nothing is missed or printed
twice. On the database file it reads the file every second.

--action takes actions separated by commas, or a kind with .* (task.*);
--project takes a project key and includes the projects under it.`,
		Example: `  tend watch --since 1 --count 3
  tend watch --since 1 --count 2 --action task.created --project web --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if count < 0 {
				return UsageError{errors.New("--count is a number of events, 1 or more")}
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				f := &follower{env: env, s: s, q: url.Values{}, next: since, stderr: cmd.ErrOrStderr()}
				setIf(f.q, "action", actions)
				setIf(f.q, "project", project)
				if !cmd.Flags().Changed("since") {
					var err error
					if f.next, err = feedEnd(ctx, s.c); err != nil {
						return err
					}
				}
				printed := 0
				for ctx.Err() == nil {
					es, err := f.page(ctx)
					if err != nil {
						return err
					}
					for _, e := range es {
						if err := printEvent(s.p, e); err != nil {
							return err
						}
						if printed++; printed == count {
							return nil
						}
					}
				}
				return nil
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	fl.Int64Var(&since, "since", 0, "the seq to start from, inclusive (default: the end of the feed, only new events)")
	fl.StringVar(&actions, "action", "", "only these actions, separated by commas; kind.* is every action of a kind (task.*)")
	fl.StringVar(&project, "project", "", "only events in this project and the projects under it")
	fl.IntVar(&count, "count", 0, "stop after this many events (default: until interrupted)")
	return cmd
}

// printEvent prints one event: the feed's JSON on a line of its own, else
// its seq, time, action and what it concerns.
func printEvent(p Printer, e wire.Event) error {
	if p.Format == FormatJSON {
		return p.JSON(e)
	}
	what := e.EntityType
	if e.ItemRef != nil {
		what = "#" + strconv.FormatInt(*e.ItemRef, 10) + " " + wire.Deref(e.ItemTitle)
	}
	p.line("%d  %s  %s  %s", e.Seq, e.CreatedAt, e.Action, what)
	return nil
}
