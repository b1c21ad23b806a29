package mcpserver

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/app"
	"tend/app/when"
	"tend/web/wire"
)

type addArgs struct {
	Text        string `json:"text" jsonschema:"the captured line: title words plus 'by friday', !4/2, ~2h, #tag, +project, 'every other monday'"`
	Description string `json:"description,omitempty" jsonschema:"longer text (Markdown)"`
	Parent      refArg `json:"parent,omitempty" jsonschema:"ref of the task this is a subtask of"`
	Type        string `json:"type,omitempty" jsonschema:"task, bug, feature, chore, question or event"`
	Workspace   string `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

type updateArgs struct {
	Ref             refsArg `json:"ref" jsonschema:"the task's ref or id, or an array (all or nothing)"`
	AppliesTo       *string `json:"applies_to,omitempty" jsonschema:"'this_one' or 'from_now_on'; a repeating task needs it, no other takes it"`
	Assignee        *string `json:"assignee,omitempty" jsonschema:"username; '' for nobody"`
	Defer           *string `json:"defer,omitempty" jsonschema:"hide until a day or a time; '' unhides"`
	Description     *string `json:"description,omitempty" jsonschema:"Markdown; '' clears"`
	Estimate        *string `json:"estimate,omitempty" jsonschema:"e.g. 2h, 90m, 1h30m or 90 (minutes); '' clears"`
	ExpectedVersion *int    `json:"expected_version,omitempty" jsonschema:"refuse if the task's version moved on"`
	Importance      *int    `json:"importance,omitempty" jsonschema:"1-5, 5 highest"`
	Plan            *string `json:"plan,omitempty" jsonschema:"the day to start it (sets starts_at); '' clears"`
	Reminders       *string `json:"reminders,omitempty" jsonschema:"e.g. 30m,1d; '' clears"`
	Repeat          *string `json:"repeat,omitempty" jsonschema:"a repeat phrase such as 'every other friday'; '' stops it"`
	Status          *string `json:"status,omitempty" jsonschema:"status key"`
	Title           *string `json:"title,omitempty" jsonschema:"new title"`
	Type            *string `json:"type,omitempty" jsonschema:"item type key"`
	Until           *string `json:"until,omitempty" jsonschema:"the deadline: a day or a time (sets due_at); '' clears"`
	Urgency         *int    `json:"urgency,omitempty" jsonschema:"1-5, 5 soonest"`
	Workspace       string  `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

type doneArgs struct {
	Ref          refsArg          `json:"ref" jsonschema:"the task's ref or id, or an array (all or nothing)"`
	Skip         bool             `json:"skip,omitempty" jsonschema:"let this one of a repeat go by instead of doing it"`
	Verification *verificationArg `json:"verification,omitempty" jsonschema:"what you checked: passed, summary, commit_sha"`
	Workspace    string           `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

// verificationArg is the evidence service_done records with a completion:
// the fields of RecordVerification an agent reports on finishing (POST
// /v1/tasks/{ref}/verifications takes the rest).
type verificationArg struct {
	Passed    bool    `json:"passed"`
	Summary   *string `json:"summary,omitempty"`
	CommitSHA *string `json:"commit_sha,omitempty"`
}

type claimArgs struct {
	Ref       claimRefArg `json:"ref" jsonschema:"the task's ref, or \"next\" for the highest-ranked ready task"`
	Release   bool        `json:"release,omitempty" jsonschema:"let go of the claim instead"`
	Workspace string      `json:"workspace,omitempty" jsonschema:"workspace name or id"`
}

func writes(idempotent bool) *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: idempotent, OpenWorldHint: &no}
}

func (m *toolbox) addWriteTools() {
	addTool(m, &mcp.Tool{Name: "service_add", Annotations: writes(false),
		Description: "Add a task from a captured line."}, m.toolTaskAdd)
	addTool(m, &mcp.Tool{Name: "service_update", Annotations: writes(false),
		Description: "Change a task's fields; omitted arguments stay as they are."}, m.toolTaskUpdate)
	addTool(m, &mcp.Tool{Name: "service_done", Annotations: writes(true),
		Description: "Complete a task, recording what you verified (a repeating one brings its next occurrence)."}, m.toolTaskDone)
	addTool(m, &mcp.Tool{Name: "service_claim", Annotations: writes(true),
		Description: "Claim a task so others leave it to you, or ref \"next\" to claim the highest-ranked ready task; it expires by itself."}, m.toolTaskClaim)
	addTool(m, &mcp.Tool{Name: "service_comment", Annotations: writes(false),
		Description: "Comment on a task or document, or withdraw your own comment."}, m.toolComment)
	addTool(m, &mcp.Tool{Name: "service_document", Annotations: writes(false),
		Description: "Create a document, linked as links say, or revise one by ref (with expected_version); an omitted status puts it in force."}, m.toolDocument)
	addTool(m, &mcp.Tool{Name: "service_link", Annotations: writes(false),
		Description: "Link refs to others, or remove such links."}, m.toolLink)
	addTool(m, &mcp.Tool{Name: "service_project", Annotations: writes(false),
		Description: "Create a project by key, or change it; with no key, list projects."}, m.toolProject)
}

// taskOut is one task as structuredContent.
type taskOut struct {
	Task wire.Task `json:"task"`
}

// doneOut is service_done's: the task, and the verification recorded with
// the completion when one was sent; for several refs, the tasks.
type doneOut struct {
	Task         *wire.Task         `json:"task,omitempty"`
	Verification *wire.Verification `json:"verification,omitempty"`
	Tasks        []wire.Task        `json:"tasks,omitempty"`
}

func oneTask(t app.Task) (string, taskOut) {
	j := wire.NewTask(t)
	line := strings.Join(wire.AlignRows([][]string{wire.TaskLine(j)}), "") + " · version " + strconv.Itoa(j.Version)
	if j.ClaimedBy != nil && j.ClaimExpiresAt != nil {
		line += "\nclaimed by " + *j.ClaimedBy + " until " + *j.ClaimExpiresAt
	}
	return line, taskOut{Task: j}
}

func (m *toolbox) toolTaskAdd(ctx context.Context, a app.Actor, in addArgs) (string, taskOut, error) {
	t, err := m.s.app.CreateTask(ctx, a, in.Workspace, app.TaskCreate{Text: in.Text, Description: in.Description, Parent: app.FlexRef(in.Parent), Type: in.Type})
	if err != nil {
		return "", taskOut{}, argError(err)
	}
	text, out := oneTask(t)
	return "added " + text, out, nil
}

func (m *toolbox) toolTaskUpdate(ctx context.Context, a app.Actor, in updateArgs) (string, updateOut, error) {
	up, err := taskUpdateOf(in)
	if err != nil {
		return "", updateOut{}, err
	}
	if len(in.Ref) != 1 {
		c, err := bulkChangeOf(up)
		if err != nil {
			return "", updateOut{}, err
		}
		text, ts, err := m.bulk(ctx, a, in.Workspace, in.Ref, c, "updated")
		return text, updateOut{Tasks: ts}, err
	}
	t, err := m.s.app.UpdateTask(ctx, a, in.Workspace, string(in.Ref[0]), up.App())
	if err != nil {
		return "", updateOut{}, argError(err)
	}
	text, out := oneTask(t)
	return "updated " + text, updateOut{Task: &out.Task}, nil
}

// taskUpdateOf turns service_update's arguments into the PATCH body, the
// one place they are read: each argument named as a field of the body is
// that field written as text (wire.TaskUpdate.SetText, where an empty text clears what
// can be cleared), estimate is a duration read into estimate_minutes and
// an omitted argument stays.
func taskUpdateOf(in updateArgs) (wire.TaskUpdate, error) {
	up := wire.TaskUpdate{ExpectedVersion: in.ExpectedVersion}
	args := reflect.ValueOf(in)
	for i := range args.NumField() {
		name, _, _ := strings.Cut(args.Type().Field(i).Tag.Get("json"), ",")
		arg := args.Field(i)
		if arg.Kind() != reflect.Pointer || arg.IsNil() || name == "expected_version" {
			continue
		}
		text := fmt.Sprint(arg.Elem().Interface())
		var err error
		if name == "estimate" {
			up.EstimateMinutes, err = parseEstimate(text)
		} else {
			err = up.SetText(name, text)
		}
		if err != nil {
			return up, err
		}
	}
	return up, nil
}

// patchOf is an omitted argument left alone and a value, empty included, set.
func patchOf(v *string) app.Patch[string] {
	if v == nil {
		return app.Patch[string]{}
	}
	return app.PatchOf(*v)
}

// parseEstimate reads minutes or a duration (app/when's grammar); empty clears.
func parseEstimate(s string) (wire.Patch[int], error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return wire.PatchNull[int](), nil
	}
	mins, err := when.ParseDuration(s)
	if err != nil {
		return wire.Patch[int]{}, app.Invalidf("arguments.estimate", "an estimate is minutes (90) or a duration (2h, 90m, 1h30m, 1d of %d working minutes)", when.WorkDay)
	}
	return wire.PatchOf(mins), nil
}

func (m *toolbox) toolTaskDone(ctx context.Context, a app.Actor, in doneArgs) (string, doneOut, error) {
	if len(in.Ref) != 1 {
		if in.Skip || in.Verification != nil {
			return "", doneOut{}, app.Invalidf("arguments.ref", "skip and verification are for one task: send one ref")
		}
		text, ts, err := m.bulk(ctx, a, in.Workspace, in.Ref, app.BulkChange{Complete: true}, "done")
		return text, doneOut{Tasks: ts}, err
	}
	ref := string(in.Ref[0])
	if in.Skip {
		if in.Verification != nil {
			return "", doneOut{}, app.Invalidf("arguments.verification", "a skipped occurrence was not done: send verification without skip, or skip without it")
		}
		t, err := m.s.app.SkipTask(ctx, a, in.Workspace, ref)
		if err != nil {
			return "", doneOut{}, argError(err)
		}
		text, out := oneTask(t)
		return "skipped " + text, doneOut{Task: &out.Task}, nil
	}
	var c app.Completion
	if v := in.Verification; v != nil {
		c.Verification = &app.RecordVerification{Passed: &v.Passed, Summary: v.Summary, CommitSHA: v.CommitSHA}
	}
	done, err := m.s.app.CompleteTask(ctx, a, in.Workspace, ref, c)
	if err != nil {
		return "", doneOut{}, argError(err)
	}
	text, one := oneTask(done.Task)
	out := doneOut{Task: &one.Task}
	if v := done.Verification; v != nil {
		j := wire.NewVerification(*v)
		out.Verification = &j
		text += "\n" + verificationLine(j)
	}
	return "done " + text, out, nil
}

// verificationLine is a verification in one line: the verdict, what was
// checked and on which commit.
func verificationLine(v wire.Verification) string {
	line := "verification: failed"
	if v.Passed {
		line = "verification: passed"
	}
	if v.Summary != nil {
		line += " · " + quoteLine(*v.Summary, 120)
	}
	if v.CommitSHA != nil {
		line += " · commit " + *v.CommitSHA
	}
	return line
}

func (m *toolbox) toolTaskClaim(ctx context.Context, a app.Actor, in claimArgs) (string, taskOut, error) {
	ref := strings.TrimPrefix(string(in.Ref), "#")
	var t app.Task
	var err error
	verb := "claimed "
	switch {
	case in.Release && ref == "next":
		return "", taskOut{}, app.Invalidf("arguments.ref", "release names the task to let go of; \"next\" is for claiming")
	case in.Release:
		verb = "released "
		t, err = m.s.app.ReleaseTask(ctx, a, in.Workspace, ref)
	case ref == "next":
		t, err = m.s.app.ClaimNextTask(ctx, a, app.NextClaim{Workspace: in.Workspace})
	default:
		t, err = m.s.app.ClaimTask(ctx, a, in.Workspace, ref, nil)
	}
	if err != nil {
		return "", taskOut{}, argError(err)
	}
	text, out := oneTask(t)
	return verb + text, out, nil
}
