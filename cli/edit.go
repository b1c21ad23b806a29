package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tend/web/wire"
)

// editFlags are tend edit's flags: one for each of EditFields that has
// one (by its name), and the version.
type editFlags struct {
	text    map[string]*string
	number  map[string]*int
	list    map[string]*[]string
	version int
}

// define adds the flags to cmd.
func (f *editFlags) define(cmd *cobra.Command) {
	f.text, f.number, f.list = map[string]*string{}, map[string]*int{}, map[string]*[]string{}
	fl := cmd.Flags()
	for _, e := range EditFields {
		switch {
		case e.Flag == "":
		case e.List:
			f.list[e.Flag] = fl.StringSlice(e.Flag, nil, e.Usage)
		case e.Number != "":
			f.number[e.Flag] = fl.Int(e.Flag, 0, e.Usage)
		default:
			f.text[e.Flag] = fl.String(e.Flag, "", e.Usage)
		}
	}
	fl.IntVar(&f.version, "version", 0, "refuse the change unless the task is at this version")
}

// update is the change the flags given ask for; set is false when none is.
// Each flag is its field written as text, but that 0 is no number and a
// list is its values joined.
func (f editFlags) update(cmd *cobra.Command) (in wire.TaskUpdate, set bool, err error) {
	for _, e := range EditFields {
		if e.Flag == "" || !cmd.Flags().Changed(e.Flag) {
			continue
		}
		set = true
		var text string
		switch {
		case e.List:
			text = strings.Join(*f.list[e.Flag], ",")
		case e.Number != "" && *f.number[e.Flag] == 0:
		case e.Number != "":
			text = strconv.Itoa(*f.number[e.Flag])
		default:
			text = *f.text[e.Flag]
		}
		if e.Field == "reminders" && strings.EqualFold(text, "none") {
			text = ""
		}
		if e.Field == "estimate_minutes" {
			in.EstimateMinutes = wire.PatchNull[int]()
			if text != "" {
				m, err := estimateMinutes(text)
				if err != nil {
					return in, false, err
				}
				in.EstimateMinutes = wire.PatchOf(m)
			}
			continue
		}
		if err := in.SetText(e.Field, text); err != nil {
			return in, false, err
		}
	}
	if cmd.Flags().Changed("version") {
		in.ExpectedVersion = &f.version
	}
	return in, set, nil
}

func newEditCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.until": "--due", "body.estimate_minutes": "--estimate", "body.expected_version": "--version",
		"body.tags": "--tag"}
	maps.Copy(w.names, bulkNames)
	var f editFlags
	var untag []string
	cmd := &cobra.Command{
		Use:   "edit REF...",
		Short: "Change a task: flags per field, or the whole task in $EDITOR; or many tasks at once",
		Long: `Change the fields the flags name; an empty value clears what can be cleared
(--assignee "", --due "", --estimate "", --description ""; --importance 0).
Dates are words, read in your zone: --due sets the deadline, --plan the day
you mean to work on it, --defer hides it until a day. On a repeating task
say --applies-to this_one or from_now_on.

With no field flag, the task opens in $EDITOR (else $VISUAL, else vi) as
Markdown: the title as a heading, a "field: value" line per field, then
the description. What you change is saved, refused if the task changed
meanwhile (version_conflict).

Several tasks (refs, and ranges such as 8-12), or --untag, make one change
to every task named, all or nothing: one of --status, --tag (which then
adds tags, keeping the others), --untag (removes them; with --tag it is
one change), --assignee, --project, --due, --defer or --importance.`,
		Example: `  tend edit 3 --due "friday 5pm" --importance 4
  tend edit 3 --tag home --tag urgent --assignee ""
  tend edit 3 --remind 30m --remind 1d
  tend edit 2 3 6-7 --tag errands`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeRefs(w),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, set, err := f.update(cmd)
			if err != nil {
				return err
			}
			refs, err := expandRefs(args)
			if err != nil {
				return err
			}
			if len(refs) > 1 || cmd.Flags().Changed("untag") {
				change, err := bulkChange(cmd, in, untag)
				if err != nil {
					return err
				}
				return w.run(cmd, func(ctx context.Context, s *session) error { return bulk(ctx, s, "updated", refs, change) })
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				if !set {
					var changed bool
					if in, changed, err = w.editInEditor(ctx, cmd, s.c, refs[0]); err != nil || !changed {
						return err
					}
				}
				t, err := s.c.UpdateTask(ctx, refs[0], in)
				if err != nil {
					return err
				}
				return s.p.Task(ctx, "updated", t)
			})
		},
	}
	w.flags(cmd)
	f.define(cmd)
	cmd.Flags().StringSliceVar(&untag, "untag", nil, "remove these tags, keeping the others")
	completeFlags(cmd, w)
	return cmd
}

// editInEditor opens the task in the editor and returns the change made
// to it; changed is false when the text came back as it went.
func (w *work) editInEditor(ctx context.Context, cmd *cobra.Command, c Client, ref string) (wire.TaskUpdate, bool, error) {
	t, err := c.Task(ctx, ref)
	if err != nil {
		return wire.TaskUpdate{}, false, err
	}
	zone := time.UTC
	if ts, err := ReadIn(ctx, c, []wire.Task{t}); err == nil && ts[0].ReaderZone() != "" {
		if l, err := time.LoadLocation(ts[0].ReaderZone()); err == nil {
			zone = l
		}
	}
	before := TaskMarkdown(t, zone)
	after, err := w.editText(cmd, fmt.Sprintf("tend-%s-*.md", strings.TrimPrefix(ref, "#")), before)
	if err != nil {
		return wire.TaskUpdate{}, false, err
	}
	in, changed, err := TaskEdits(before, after, t.Version)
	if err != nil {
		return in, false, UsageError{err}
	}
	if !changed {
		fmt.Fprintln(cmd.OutOrStdout(), "no change")
	}
	return in, changed, nil
}

// editText runs the editor on text in a temporary file named by pattern
// and returns what it holds afterwards.
func (w *work) editText(cmd *cobra.Command, pattern, text string) (string, error) {
	editor := w.env.getenv("EDITOR")
	if editor == "" {
		editor = w.env.getenv("VISUAL")
	}
	if editor == "" {
		editor = "vi"
	}
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(text); err != nil {
		_ = f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	// Through the shell, as git runs it: $EDITOR may carry arguments ("code --wait").
	run := exec.CommandContext(cmd.Context(), "/bin/sh", "-c", editor+` "$1"`, "editor", f.Name())
	run.Stdin, run.Stdout, run.Stderr = cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if err := run.Run(); err != nil {
		return "", fmt.Errorf("the editor (%s) failed, nothing was saved: %w", filepath.Base(editor), err)
	}
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return "", err
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return "", errors.New("the text came back empty: nothing was saved")
	}
	return string(b), nil
}
