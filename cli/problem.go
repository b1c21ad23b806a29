package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// The exit statuses of tend's commands (docs/cli.md, "Exit status").
const (
	ExitOK       = 0 // done
	ExitError    = 1 // refused or failed: the message says why
	ExitUsage    = 2 // the command line itself is wrong: a flag, an argument
	ExitNotFound = 3 // no such item (or one the caller may not see), nothing ready to claim
	ExitConflict = 4 // a conflict: a claim another holds, a stale version, a duplicate
)

// Problem is a refusal as both clients report it: the problem document the
// server answered with, or the one it would have answered with. It unwraps
// to an *app.Error of the same code, so app.CodeOf reads it.
type Problem struct {
	Status int
	Code   app.Code
	Title  string
	Detail string                // what to fix, for every refusal but a 422
	Fields []wire.ValidationItem // a 422's detail: each field and what is wrong with it
	Extra  map[string]any        // extension members, such as a held claim's holder and expires_at
	// Fix says how to get past the refusal where the command knows better
	// than its code does (fixes); "" for the code's.
	Fix   string
	cause error // on the local file, what an internal error was
}

// Error is the refusal in one line, fields named by their location.
func (p *Problem) Error() string { return p.Describe(nil) }

// Unwrap is the refusal as the domain's error.
func (p *Problem) Unwrap() error { return &app.Error{Code: p.Code, Detail: p.Detail, Err: p.cause} }

// Describe is the refusal in one line: its code, then what was wrong and
// how to fix it. name, when not nil, says how the command line spells a
// field's location (a flag for query.status, the line for body.text).
func (p *Problem) Describe(name func(loc []string) string) string {
	if p.Code == "" {
		return p.Detail
	}
	var b strings.Builder
	b.WriteString(string(p.Code))
	parts := []string{}
	if p.Detail != "" {
		parts = append(parts, p.Detail)
	}
	for _, f := range p.Fields {
		where := strings.Join(f.Loc, ".")
		if name != nil {
			where = name(f.Loc)
		}
		if where == "" {
			parts = append(parts, f.Msg)
			continue
		}
		parts = append(parts, where+": "+f.Msg)
	}
	if p.Code == app.CodeInternal && p.cause != nil {
		parts = append(parts, p.cause.Error())
	}
	if len(parts) > 0 {
		b.WriteString(": " + strings.Join(parts, "; "))
	}
	fix := p.Fix
	if fix == "" {
		fix = fixes[p.Code]
	}
	if fix != "" {
		b.WriteString(" (" + fix + ")")
	}
	return b.String()
}

// fixes says, for the refusals a person at a terminal meets, what command
// gets past them, beyond what the detail says.
var fixes = map[app.Code]string{
	app.CodeNotFound:          "tend search WORDS finds the refs you may see",
	app.CodeNothingReady:      "tend ls --to-act-on shows what waits; tend add files more",
	app.CodeClaimHeld:         "take other work: tend claim next",
	app.CodeTaskClosed:        "tend reopen REF first, or take other work: tend claim next",
	app.CodeVersionConflict:   "it changed meanwhile: tend show REF, then edit again",
	app.CodeUnauthorized:      "tend login URL with a valid token, or tend logout to work on the local file",
	app.CodeWorkspaceRequired: "name one with --workspace (or TEND_WORKSPACE)",
}

// ExitCode is the exit status err calls for: ExitUsage for a mistake in
// the command line, ExitNotFound and ExitConflict for the refusals that
// answer 404 and 409, ExitError for any other (docs/cli.md, "Exit status").
func ExitCode(err error) int {
	var u UsageError
	if errors.As(err, &u) {
		return ExitUsage
	}
	var p *Problem
	if !errors.As(err, &p) || p.Code == "" {
		return ExitError
	}
	switch p.Status {
	case http.StatusNotFound:
		return ExitNotFound
	case http.StatusConflict:
		return ExitConflict
	}
	return ExitError
}

// ProblemOf is err, which is not nil, as a Problem (problemOf).
func ProblemOf(err error) *Problem {
	var p *Problem
	_ = errors.As(problemOf(err), &p)
	return p
}

// problemOf is err as a Problem: the problem document web would write for
// it (wire.NewProblem, the one code table). An internal error keeps its
// cause: on the local file the person running the command is the operator
// who would read it in the server's log.
func problemOf(err error) error {
	if err == nil {
		return nil
	}
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	p = fromWire(wire.NewProblem(err))
	if p.Code == app.CodeInternal {
		p.cause = err
	}
	return p
}

func fromWire(wp wire.Problem) *Problem {
	p := &Problem{Status: wp.Status, Code: wp.Code, Title: wp.Title, Extra: wp.Extra}
	switch d := wp.Detail.(type) {
	case string:
		p.Detail = d
	case []wire.ValidationItem:
		p.Fields = d
	}
	return p
}

// DecodeProblem reads the problem document of a refusal. An answer that is
// none (a proxy's error page, another service at the URL) says so, with
// its status.
func DecodeProblem(status int, body []byte, where string) *Problem {
	var doc struct {
		Title  string          `json:"title"`
		Status int             `json:"status"`
		Detail json.RawMessage `json:"detail"`
		Code   app.Code        `json:"code"`
	}
	if json.Unmarshal(body, &doc) != nil || doc.Code == "" {
		return &Problem{Status: status, Detail: fmt.Sprintf("%s answered %d %s, which is no tend answer: check the URL (tend login)",
			where, status, http.StatusText(status))}
	}
	p := &Problem{Status: status, Code: doc.Code, Title: doc.Title}
	if json.Unmarshal(doc.Detail, &p.Fields) != nil {
		p.Fields = nil
		_ = json.Unmarshal(doc.Detail, &p.Detail)
	}
	var all map[string]any
	_ = json.Unmarshal(body, &all)
	for _, k := range []string{"type", "title", "status", "detail", "instance", "code"} {
		delete(all, k)
	}
	if len(all) > 0 {
		p.Extra = all
	}
	return p
}
