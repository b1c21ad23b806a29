package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tend/web/wire"
)

// editFlags are tend edit's fields: each sets the field of the same name;
// an empty value clears what can be cleared.
type editFlags struct {
	title, description, project, parent, typ, status, assignee, estimate, due, plan, deferTo, repeat, appliesTo string
	tags                                                                                                        []string
	importance, urgency, version                                                                                int
}

// update is the change the flags given ask for; set is false when none is.
func (f editFlags) update(cmd *cobra.Command) (in wire.TaskUpdate, set bool, err error) {
	changed := cmd.Flags().Changed
	text := func(name, v string, clears bool) wire.Patch[string] {
		if !changed(name) {
			return wire.Patch[string]{}
		}
		set = true
		if v == "" && clears {
			return wire.PatchNull[string]()
		}
		return wire.PatchOf(v)
	}
	level := func(name string, v int) wire.Patch[int] {
		if !changed(name) {
			return wire.Patch[int]{}
		}
		set = true
		if v == 0 {
			return wire.PatchNull[int]()
		}
		return wire.PatchOf(v)
	}
	in = wire.TaskUpdate{Title: text("title", f.title, false), Description: text("description", f.description, true),
		Project: text("project", f.project, false), Type: text("type", f.typ, false), Status: text("status", f.status, false),
		Assignee: text("assignee", f.assignee, true), Until: text("due", f.due, false), Plan: text("plan", f.plan, false),
		Defer: text("defer", f.deferTo, false), Repeat: text("repeat", f.repeat, false), AppliesTo: text("applies-to", f.appliesTo, false),
		Importance: level("importance", f.importance), Urgency: level("urgency", f.urgency)}
	if changed("parent") {
		set = true
		in.Parent = wire.PatchOf(wire.FlexRef(strings.TrimPrefix(f.parent, "#")))
		if f.parent == "" {
			in.Parent = wire.PatchNull[wire.FlexRef]()
		}
	}
	if changed("tag") {
		set = true
		in.Tags = wire.PatchOf(nonEmpty(f.tags))
	}
	if changed("estimate") {
		set = true
		in.EstimateMinutes = wire.PatchNull[int]()
		if f.estimate != "" {
			m, err := estimateMinutes(f.estimate)
			if err != nil {
				return in, false, err
			}
			in.EstimateMinutes = wire.PatchOf(m)
		}
	}
	if changed("version") {
		in.ExpectedVersion = &f.version
	}
	return in, set, nil
}

func nonEmpty(xs []string) []string {
	out := []string{}
	for _, x := range xs {
		if x = strings.TrimSpace(strings.TrimPrefix(x, "#")); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func newEditCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.until": "--due", "body.estimate_minutes": "--estimate", "body.expected_version": "--version",
		"body.tags": "--tag"}
	var f editFlags
	cmd := &cobra.Command{
		Use:   "edit REF",
		Short: "Change a task: flags per field, or the whole task in $EDITOR",
		Long: `Change the fields the flags name; an empty value clears what can be cleared
(--assignee "", --due "", --estimate "", --description ""; --importance 0).
Dates are words, read in your zone: --due sets the deadline, --plan the day
you mean to work on it, --defer hides it until a day. On a repeating task
say --applies-to this_one or from_now_on.

With no field flag, the task opens in $EDITOR (else $VISUAL, else vi) as
Markdown: the title as a heading, a "field: value" line per field, then
the description. What you change is saved, refused if the task changed
meanwhile (version_conflict).`,
		Example: `  tend edit 3 --due "friday 5pm" --importance 4
  tend edit 3 --tag home --tag urgent --assignee ""`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeRefs(w),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, set, err := f.update(cmd)
			if err != nil {
				return err
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				if !set {
					var changed bool
					if in, changed, err = w.editInEditor(ctx, cmd, s.c, args[0]); err != nil || !changed {
						return err
					}
				}
				t, err := s.c.UpdateTask(ctx, args[0], in)
				if err != nil {
					return err
				}
				return s.p.Task(ctx, "updated", t)
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.title, "title", "", "the title")
	fl.StringVar(&f.description, "description", "", "the description (Markdown)")
	fl.StringVar(&f.project, "project", "", "move it to this project (a key)")
	fl.StringVar(&f.parent, "parent", "", `make it a subtask of this task ("" for none)`)
	fl.StringVar(&f.typ, "type", "", "the item type")
	fl.StringVar(&f.status, "status", "", "the status key")
	fl.StringVar(&f.assignee, "assignee", "", `assign it to this username ("" for nobody)`)
	fl.StringVar(&f.estimate, "estimate", "", `the estimate: 90, 90m, 1h30m ("" for none)`)
	fl.StringVar(&f.due, "due", "", `the deadline, in words ("friday 5pm"; "" for none)`)
	fl.StringVar(&f.plan, "plan", "", `the day you mean to work on it ("" for none)`)
	fl.StringVar(&f.deferTo, "defer", "", `hide it until this day ("" brings it back)`)
	fl.StringVar(&f.repeat, "repeat", "", `a repeat phrase ("" stops it)`)
	fl.StringVar(&f.appliesTo, "applies-to", "", "on a repeating task: this_one or from_now_on")
	fl.StringSliceVar(&f.tags, "tag", nil, `the tags, replacing the ones it has (--tag "" for none)`)
	fl.IntVar(&f.importance, "importance", 0, "importance, 1 to 5 (0 for none)")
	fl.IntVar(&f.urgency, "urgency", 0, "urgency, 1 to 5 (0 for none)")
	fl.IntVar(&f.version, "version", 0, "refuse the change unless the task is at this version")
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
