package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"tend/web/wire"
)

// untilStates are what tend wait --until waits for.
var untilStates = []string{"done", "ready", "unclaimed"}

func newWaitCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	var until string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "wait REF --until done|ready|unclaimed",
		Short: "Wait until a task is done, ready or unclaimed",
		Long: `Wait until the task reaches a state, then exit 0 (at once when it is
there already); exit 1 when --timeout passes first.

  done       finished: completed or cancelled
  ready      what tend ls --ready lists: nothing unfinished blocks it, not
             deferred, not held by another's claim
  unclaimed  nobody holds a claim on it (released, or run out)

It follows the change feed (tend watch) and reads the task again when an
event about it commits, or, for ready, any event (a blocker finishing
readies it); and at least every 30 seconds, since a claim or a deferral
runs out without an event.`,
		Example:           `  tend wait 2 --until done --timeout 1m`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRefs(w),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(untilStates, until) {
				return UsageError{fmt.Errorf("--until is done, ready or unclaimed, not %q", until)}
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				if timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, timeout)
					defer cancel()
				}
				err := waitFor(ctx, env, s, args[0], until, cmd)
				if errors.Is(err, context.DeadlineExceeded) {
					return fmt.Errorf("#%s is not %s after %s (--timeout)", trimRef(args[0]), until, timeout)
				}
				return err
			})
		},
	}
	w.flags(cmd)
	cmd.Flags().StringVar(&until, "until", "", "the state to wait for: done, ready or unclaimed")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "give up after this long, exiting 1 (e.g. 90s, 10m; default: wait for ever)")
	_ = cmd.RegisterFlagCompletionFunc("until", cobra.FixedCompletions(untilStates, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// waitFor returns once the task ref is in the state until, reading it
// again whenever the feed brings an event that may have changed that. The
// feed's end is taken before the first look, so nothing committed between
// the look and the wait is missed.
func waitFor(ctx context.Context, env *Env, s *session, ref, until string, cmd *cobra.Command) error {
	f := &follower{env: env, s: s, q: url.Values{}, stderr: cmd.ErrOrStderr()}
	var err error
	if f.next, err = feedEnd(f.requestContext(ctx), s.c); err != nil {
		return err
	}
	for {
		t, there, err := inState(f.requestContext(ctx), s.c, ref, until)
		if err != nil || there {
			return err
		}
		for {
			es, err := f.page(ctx)
			if err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if len(es) == 0 || until == "ready" || slices.ContainsFunc(es, func(e wire.Event) bool {
				return e.EntityID == t.ID || wire.Deref(e.SubjectID) == t.ID
			}) {
				break
			}
		}
	}
}

// inState reads the task and says whether it is in the state: ready is the
// task listing's own rule (ready=true), asked of this task alone.
func inState(ctx context.Context, c Client, ref, until string) (wire.Task, bool, error) {
	t, err := c.Task(ctx, ref)
	if err != nil {
		return t, false, err
	}
	switch until {
	case "done":
		return t, t.IsComplete, nil
	case "unclaimed":
		return t, t.ClaimedBy == nil, nil
	}
	page, err := c.Tasks(ctx, url.Values{"ready": {"true"}, "ref": {t.ID}, "limit": {"1"}})
	return t, len(page.Tasks) > 0, err
}
