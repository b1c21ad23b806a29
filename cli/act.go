package cli

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"tend/web/wire"
)

// taskAction is a command that does one thing to one task and prints it.
func taskAction(env *Env, dbPath *string, use, short, long, example, verb string,
	act func(c Client, ctx context.Context, ref string) (wire.Task, error)) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short, Long: long, Example: example}
	return newWork(env, dbPath).refCmd(cmd, func(ctx context.Context, s *session, ref string) error {
		t, err := act(s.c, ctx, ref)
		if err != nil {
			return err
		}
		return s.p.Task(ctx, verb, t)
	})
}

func newSkipCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	return w.call(&cobra.Command{
		Use:               "skip REF",
		Short:             "Let this occurrence of a repeating task go by",
		Long:              "Skip this occurrence of a repeating task: it is not done, and the next one comes, which is shown.",
		Example:           "  tend skip 4",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRefs(w),
	}, func(ctx context.Context, s *session, args []string) error {
		f, err := s.c.Skip(ctx, args[0])
		if err != nil {
			return err
		}
		return finished(ctx, s, "skipped", f)
	})
}

// finished prints a task completed or skipped and then the next occurrence
// it brought, so the person sees when it comes again. --json prints the
// task alone: one document, the route's answer.
func finished(ctx context.Context, s *session, verb string, f Finished) error {
	if err := s.p.Task(ctx, verb, f.Task); err != nil || f.Next == "" || s.p.Format == FormatJSON {
		return err
	}
	next, err := s.c.Task(ctx, f.Next)
	if err != nil {
		return err
	}
	return s.p.Task(ctx, "next", next)
}

func newReopenCmd(env *Env, dbPath *string) *cobra.Command {
	return taskAction(env, dbPath, "reopen REF", "Move a finished or cancelled task back to the default status",
		"Move a task back to its workspace's default status (todo, unless the workspace says otherwise).",
		"  tend reopen 6", "reopened", func(c Client, ctx context.Context, ref string) (wire.Task, error) {
			return Reopen(ctx, c, ref)
		})
}

func newReleaseCmd(env *Env, dbPath *string) *cobra.Command {
	return taskAction(env, dbPath, "release REF", "Let go of your claim on a task",
		"Let go of your claim. Releasing a task nobody holds is no error.",
		"  tend release 3", "released", Client.Release)
}

func newDoneCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.verification": "the verification", "body.verification.summary": "--verify",
		"body.verification.commit_sha": "--commit", "body.verification.passed": "--passed"}
	var verify, commit string
	var passed, failed bool
	cmd := &cobra.Command{
		Use:   "done REF...",
		Short: "Complete tasks, with what you checked",
		Long: `Complete a task; a repeating one brings its next occurrence, shown after
it. With --verify (what you checked), --passed or --failed, and --commit,
the verification is recorded in the same write as the completion: if
either is refused, neither is stored. A verification is self-reported
evidence, never proof.

Several tasks (refs, and ranges such as 8-12) are completed together, all
or nothing; a verification is for one task.`,
		Example: `  tend done 6
  tend done 2 --verify "go test ./... green" --passed --commit 3f2a9c1
  tend done 6 7`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeRefs(w),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := exclusive(cmd, "passed", "failed"); err != nil {
				return err
			}
			refs, err := expandRefs(args)
			if err != nil {
				return err
			}
			if len(refs) > 1 {
				if verify != "" || commit != "" || passed || failed {
					return UsageError{errors.New("a verification is for one task: complete the others apart")}
				}
				return w.run(cmd, func(ctx context.Context, s *session) error {
					return bulk(ctx, s, "done", refs, wire.BulkChange{Complete: true})
				})
			}
			var in wire.Completion
			if verify != "" || commit != "" || passed || failed {
				if !passed && !failed {
					return UsageError{errors.New("say whether the check passed: --passed or --failed")}
				}
				ok := passed
				in.Verification = &wire.RecordVerification{Passed: &ok}
				if verify != "" {
					in.Verification.Summary = &verify
				}
				if commit != "" {
					in.Verification.CommitSHA = &commit
				}
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				f, err := s.c.Complete(ctx, refs[0], in)
				if err != nil {
					return err
				}
				return finished(ctx, s, "done", f)
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&verify, "verify", "", `what you checked ("go test ./... green")`)
	fl.BoolVar(&passed, "passed", false, "the check passed")
	fl.BoolVar(&failed, "failed", false, "the check failed")
	fl.StringVar(&commit, "commit", "", "the commit the check ran on")
	return cmd
}

func newClaimCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	var minutes int
	var next struct{ project, tag, typ, assignee string }
	cmd := &cobra.Command{
		Use:   "claim REF|next",
		Short: "Claim a task, or the next ready one, for a while",
		Long: `Claim a task for --minutes (default: the claim_minutes setting, 30 unless
the workspace says otherwise); claiming again renews it. "next" claims the
highest-ranked ready task assigned to you or to nobody, in the same write:
two agents never get the same one. --project, --tag, --type and --assignee
narrow what next picks from. A claim expires by itself.`,
		Example: `  tend claim next
  tend claim next --project web --minutes 60 --format compact
  tend claim 3 --minutes 30`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRefs(w, "next"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var in wire.Claim
			if cmd.Flags().Changed("minutes") {
				in.Minutes = &minutes
			}
			isNext := args[0] == "next"
			if !isNext {
				for _, f := range []string{"project", "tag", "type", "assignee"} {
					if cmd.Flags().Changed(f) {
						return UsageError{errors.New("--" + f + " narrows what claim next picks; claim REF takes that task")}
					}
				}
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				var t wire.Task
				var err error
				if isNext {
					q := url.Values{}
					for key, v := range map[string]string{"project": next.project, "tag": next.tag, "type": next.typ, "assignee": next.assignee} {
						setIf(q, key, v)
					}
					if in.Minutes != nil {
						q.Set("minutes", strconv.Itoa(minutes))
					}
					t, err = s.c.ClaimNext(ctx, q)
				} else {
					t, err = s.c.Claim(ctx, args[0], in)
				}
				if err != nil {
					return err
				}
				return s.p.Task(ctx, "claimed", t)
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	fl.IntVar(&minutes, "minutes", 0, "how long the claim lasts")
	fl.StringVar(&next.project, "project", "", "next: only in this project")
	fl.StringVar(&next.tag, "tag", "", "next: only with this tag")
	fl.StringVar(&next.typ, "type", "", "next: only of this item type")
	fl.StringVar(&next.assignee, "assignee", "", "next: only assigned to this username")
	completeFlags(cmd, w)
	return cmd
}

func newCommentCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.body": "TEXT"}
	cmd := &cobra.Command{
		Use:   "comment REF TEXT",
		Short: "Comment on a task or document",
		Long:  "Comment on a task or a document. Without TEXT the comment is read from stdin.",
		Example: `  tend comment 2 "Fixed in 3f2a9c1"
  echo "Checked on staging" | tend comment 2`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeRefs(w),
		RunE: func(cmd *cobra.Command, args []string) error {
			text := strings.Join(args[1:], " ")
			if text == "" {
				in, _, err := w.piped(cmd)
				if err != nil {
					return err
				}
				text = strings.TrimRight(in, "\n")
			}
			if strings.TrimSpace(text) == "" {
				return UsageError{errors.New(`give the comment: tend comment REF "text", or on stdin`)}
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				c, err := s.c.Comment(ctx, args[0], wire.CommentCreate{Body: text})
				if err != nil {
					return err
				}
				return s.p.Comment(args[0], c)
			})
		},
	}
	w.flags(cmd)
	return cmd
}

func newLinkCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.link_type": "TYPE", "body.target": "OTHER"}
	var document bool
	cmd := &cobra.Command{
		Use:   "link REF TYPE OTHER",
		Short: "Link a task or document to another (blocks, relates_to, documents, …)",
		Long: `Link REF to OTHER with a link type (GET /v1/link-types lists them): blocks
(what readiness reads), precedes, relates_to, duplicates, documents (a
document that governs a task), derives_from, supersedes. REF may be a task
or a document, and so may OTHER: its ref says which (--document, once
needed for a document, is still read).`,
		Example: `  tend link 2 blocks 3
  tend link 5 documents 2`,
		Args:              cobra.ExactArgs(3),
		ValidArgsFunction: completeRefs(w),
		RunE: func(cmd *cobra.Command, args []string) error {
			in := wire.LinkRequest{LinkType: args[1], Target: wire.FlexRef(strings.TrimPrefix(args[2], "#"))}
			if document {
				in.TargetType = "document"
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				// The route takes OTHER as a task unless told: a ref names
				// one item, whose kind the item route answers. One it
				// cannot find is left for the link's own refusal to name.
				if it, err := s.c.Show(ctx, args[2]); in.TargetType == "" && err == nil && it.Kind == "document" {
					in.TargetType = "document"
				}
				l, err := s.c.Link(ctx, args[0], in)
				if err != nil {
					return err
				}
				return s.p.Link(args[0], l)
			})
		},
	}
	w.flags(cmd)
	cmd.Flags().BoolVar(&document, "document", false, "OTHER is a document")
	return cmd
}
