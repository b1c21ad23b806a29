package cli

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/web/wire"
)

// expandRefs reads the tasks a command is given: refs (3, #3) and ranges
// of refs (8-12), in the order written, each once.
func expandRefs(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(ref string) {
		if !seen[ref] {
			seen[ref] = true
			out = append(out, ref)
		}
	}
	for _, arg := range args {
		ref := trimRef(arg)
		from, to, isRange := strings.Cut(ref, "-")
		if !isRange {
			add(ref)
			continue
		}
		lo, err1 := strconv.Atoi(trimRef(from))
		hi, err2 := strconv.Atoi(trimRef(to))
		switch {
		case err1 != nil || err2 != nil || lo < 1 || hi < lo:
			return nil, UsageError{fmt.Errorf("%q is no range of refs: write it low-high, as 8-12", arg)}
		case hi-lo >= app.MaxBulkTasks:
			return nil, UsageError{fmt.Errorf("%q names more than %d tasks, the most one change takes", arg, app.MaxBulkTasks)}
		}
		for r := lo; r <= hi; r++ {
			add(strconv.Itoa(r))
		}
	}
	return out, nil
}

// bulkNames spells a bulk refusal's fields as the commands' flags.
var bulkNames = map[string]string{"body.change.tags": "--tag", "body.change.tags.add": "--tag", "body.change.tags.remove": "--untag",
	"body.change.due": "--due", "body.change.defer": "--defer", "body.change.status": "--status", "body.change.project": "--project",
	"body.change.assignee": "--assignee", "body.change.importance": "--importance", "body.tasks": "the tasks"}

// bulkFlags are edit's flags a change of several tasks takes.
var bulkFlags = []string{"status", "tag", "untag", "assignee", "project", "due", "defer", "importance"}

// bulkChange is the one change edit's flags ask of several tasks: with
// them --tag adds tags, and --untag removes them.
func bulkChange(cmd *cobra.Command, in wire.TaskUpdate, untag []string) (wire.BulkChange, error) {
	c := wire.BulkChange{Status: in.Status, Assignee: in.Assignee, Project: in.Project, Due: in.Until, Defer: in.Defer, Importance: in.Importance}
	if in.Tags.Set || len(untag) > 0 {
		c.Tags = &wire.TagChange{Add: in.Tags.Value, Remove: untag}
	}
	n := 0
	names := []string{"untag", "version"}
	for _, e := range EditFields {
		names = append(names, e.Flag)
	}
	for _, name := range names {
		if !cmd.Flags().Changed(name) {
			continue
		}
		if !slices.Contains(bulkFlags, name) {
			return c, UsageError{fmt.Errorf("--%s changes one task at a time; several tasks take --%s", name, strings.Join(bulkFlags, ", --"))}
		}
		if name != "untag" {
			n++
		}
	}
	if n == 0 && len(untag) > 0 {
		n = 1
	}
	if n != 1 {
		return c, UsageError{fmt.Errorf("several tasks take one change at a time: one of --%s (--tag and --untag together count as one)", strings.Join(bulkFlags, ", --"))}
	}
	return c, nil
}

// BulkTasks is POST /v1/tasks/bulk.
func (r *Remote) BulkTasks(ctx context.Context, in wire.TaskBulk) (wire.TaskBulkResult, error) {
	return get[wire.TaskBulkResult](ctx, r, http.MethodPost, "/v1/tasks/bulk", nil, in)
}

// bulk makes change to the tasks refs names and prints them, each with verb.
func bulk(ctx context.Context, s *session, verb string, refs []string, change wire.BulkChange) error {
	in := wire.TaskBulk{Tasks: make([]wire.BulkTarget, len(refs)), Change: change}
	for i, ref := range refs {
		in.Tasks[i] = wire.BulkTarget{Ref: wire.FlexRef(ref)}
	}
	out, err := s.c.BulkTasks(ctx, in)
	if err != nil {
		return err
	}
	switch s.p.Format {
	case FormatJSON:
		return s.p.JSON(out)
	case FormatCompact:
		return s.p.compactTasks(ctx, out.Tasks, "tasks")
	}
	for _, t := range out.Tasks {
		if err := s.p.Task(ctx, verb, t); err != nil {
			return err
		}
	}
	return nil
}
