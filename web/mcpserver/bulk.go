package mcpserver

import (
	"context"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// updateOut is service_update's: the task, or for several refs the tasks,
// as the change left them.
type updateOut struct {
	Task  *wire.Task  `json:"task,omitempty"`
	Tasks []wire.Task `json:"tasks,omitempty"`
}

// oneTaskArgs are service_update's arguments that change one task at a
// time, in bulkChangeOf's order.
var oneTaskArgs = []string{"applies_to", "description", "estimate", "expected_version", "plan", "repeat", "title", "type", "urgency"}

// bulkChangeOf is the change of several tasks service_update's arguments
// make: one of status, assignee, defer, importance and until. The other
// arguments change one task at a time.
func bulkChangeOf(up wire.TaskUpdate) (app.BulkChange, error) {
	for i, set := range []bool{up.AppliesTo.Set, up.Description.Set, up.EstimateMinutes.Set, up.ExpectedVersion != nil,
		up.Plan.Set, up.Repeat.Set, up.Title.Set, up.Type.Set, up.Urgency.Set} {
		if set {
			return app.BulkChange{}, app.Invalidf("arguments."+oneTaskArgs[i],
				"changes one task at a time; several refs take one of status, assignee, defer, importance or until")
		}
	}
	return app.BulkChange{Status: up.Status.App(), Assignee: up.Assignee.App(), Defer: up.Defer.App(),
		Importance: up.Importance.App(), Due: up.Until.App()}, nil
}

// bulk makes the change c to the tasks refs names, all or nothing, and
// answers them, each line begun with verb.
func (m *toolbox) bulk(ctx context.Context, a app.Actor, workspace string, refs refsArg, c app.BulkChange, verb string) (string, []wire.Task, error) {
	targets := make([]app.BulkTarget, len(refs))
	for i, ref := range refs.strings() {
		targets[i] = app.BulkTarget{Ref: app.FlexRef(ref)}
	}
	ts, err := m.s.app.BulkTasks(ctx, a, workspace, targets, c)
	if err != nil {
		return "", nil, bulkError(err)
	}
	lines, out := make([]string, len(ts)), make([]wire.Task, len(ts))
	for i, t := range ts {
		var one taskOut
		lines[i], one = oneTask(t)
		lines[i], out[i] = verb+" "+lines[i], one.Task
	}
	return strings.Join(lines, "\n"), out, nil
}

// bulkError is a bulk refusal naming the tool's arguments: the tasks are
// its ref, the change's fields the arguments that set them.
func bulkError(err error) error {
	err = argError(err)
	if err == nil || app.CodeOf(err) == app.CodeInternal {
		return err
	}
	e := app.AsError(err)
	for i, f := range e.Fields {
		switch {
		case len(f.Loc) > 1 && f.Loc[1] == "tasks":
			e.Fields[i].Loc = append([]string{f.Loc[0], "ref"}, f.Loc[2:]...)
		case len(f.Loc) > 2 && f.Loc[1] == "change" && f.Loc[2] == "due":
			e.Fields[i].Loc = []string{f.Loc[0], "until"}
		case len(f.Loc) > 2 && f.Loc[1] == "change":
			e.Fields[i].Loc = append([]string{f.Loc[0]}, f.Loc[2:]...)
		}
	}
	return e
}
