package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Migration is what an importer read from another tool's file (app/from),
// in tend's terms: projects holding tasks with their comments, the links
// between tasks, and what the file held that tend cannot keep, with why.
// Everything carries the id it had in that tool, so that importing the
// same file again updates what the first import wrote.
type Migration struct {
	Source   string // the tool: todoist, vikunja, beads or github
	Projects []MigratedProject
	Links    []MigratedLink
	Unmapped []Unmapped
}

// MigratedProject is one project of the tool. A project sits inside the
// project named by Parent, which comes earlier in the list.
type MigratedProject struct {
	ExternalID  string
	Where       string // the record in the file, for errors: "line 12", "project 3"
	Key         string // a key the tool suggests (Vikunja's identifier); else one is made from the title
	Title       string
	Description string
	Parent      string
	// Inbox marks the tool's own inbox (Vikunja's "Inbox"), where its
	// unfiled work lands: without --project it goes into the workspace's
	// inbox rather than a new project beside it.
	Inbox bool
	Tasks []MigratedTask
}

// MigratedTask is one task of the tool. Parent names a task of the same
// project; it may come after the task.
type MigratedTask struct {
	ExternalID  string
	Where       string
	Title       string
	Description string
	Parent      string
	Type        string   // an item type key for tasks ("bug"); "" is the default
	Tags        []string // names as the tool writes them; see TagName
	Importance  *int
	Urgency     *int
	// When is a date written in words, with or without a repeat ("every
	// monday", "tomorrow 9am"): read with the captured-line grammar, so a
	// repeat becomes a series. Due and Repeat are the structured kind.
	When            string
	Timezone        string
	Due             *time.Time
	DueAllDay       bool
	Starts          *time.Time
	Repeat          string // a repeat phrase ("every 2 weeks")
	EstimateMinutes *int
	// Status is a task status key of the workspace or a status category
	// (todo, in_progress, done, cancelled); "" is the default status.
	Status   string
	Assignee string // the tool's name for the person: a member here of that username
	Comments []MigratedComment
}

// MigratedComment is one comment on a task. Author and At, when the tool
// says, head the comment, since it is written as the importing account.
type MigratedComment struct {
	ExternalID string
	Where      string
	Author     string
	At         *time.Time
	Body       string
}

// MigratedLink is a typed link between two tasks of the migration, by
// their ids in the tool.
type MigratedLink struct {
	From, To string
	Type     string // a link type key: blocks, relates_to, duplicates, precedes, ...
	Where    string
}

// Unmapped is something of the file an import leaves out or changes, and why.
type Unmapped struct {
	Where string
	What  string
	Why   string
}

// MigrateOptions says where a migration goes.
type MigrateOptions struct {
	Workspace string
	// Project is the project key to import into: the file's one top-level
	// project becomes it (created if missing), or several go inside it.
	Project string
	DryRun  bool
}

// MigrationReport says what a migration did (or, dry, would do).
type MigrationReport struct {
	Source   string
	DryRun   bool
	Projects []ProjectMigrated
	Unmapped []Unmapped
}

// ProjectMigrated is what a migration did in one project.
type ProjectMigrated struct {
	Key, Path        string
	Created          bool
	TasksCreated     int
	TasksUpdated     int
	TasksUnchanged   int
	CommentsCreated  int
	CommentsUpdated  int
	LinksCreated     int
	LinkTypesCreated []string
	// Tasks names each task an import found again and changed, or found
	// changed both in tend and in the file (migrate_keep.go), and how.
	Tasks []TaskMigrated
	// Failed is the error of the project whose transaction failed (Path
	// is then its title in the file); the projects after it were not tried.
	Failed error
}

// ExternalRef is the row an import wrote for an id of another tool.
type ExternalRef struct {
	EntityType string
	EntityID   string
	// Imported is what the import last read from the file for the row, a
	// JSON object of field → value (migrate_keep.go); "" when nothing was
	// kept (rows written before tend kept it, projects).
	Imported string
}

type externalTx interface {
	ExternalEntity(ctx context.Context, workspaceID, source, externalID string) (ExternalRef, error)
	PutExternalID(ctx context.Context, workspaceID, source, externalID string, ref ExternalRef, at time.Time) error
}

// Sources are the tools Migrate reads migrations from.
var Sources = []string{"todoist", "vikunja", "beads", "github"}

// Migrate writes a migration into a workspace, as the caller, one
// transaction per project, in the order of the file: a project that fails
// leaves nothing of itself written and stops the import, and the projects
// before it stay (importing again updates them and carries on). An item
// the tool's id already names (an earlier import of the same tool) is
// updated rather than added again. A dry run does all of it in one
// transaction that is rolled back, and reports the same.
func (s *Service) Migrate(ctx context.Context, a Actor, m Migration, opts MigrateOptions) (MigrationReport, error) {
	rep := MigrationReport{Source: m.Source, DryRun: opts.DryRun, Unmapped: m.Unmapped}
	if err := s.checkMigration(&m, opts); err != nil {
		return rep, err
	}
	if opts.DryRun {
		err := s.store.Update(ctx, func(tx Tx) error {
			rep = MigrationReport{Source: m.Source, DryRun: true, Unmapped: m.Unmapped}
			mg, err := s.newMigrator(ctx, tx, a, &m, opts, &rep)
			if err != nil {
				return err
			}
			for i := range m.Projects {
				if err := mg.project(i); err != nil {
					rep.Projects = append(rep.Projects[:min(i, len(rep.Projects))], ProjectMigrated{Path: m.Projects[i].Title, Failed: err})
					return err
				}
			}
			return errDryRun
		})
		if errors.Is(err, errDryRun) {
			err = nil
		}
		return rep, err
	}
	for i := range m.Projects {
		before := rep
		err := s.store.Update(ctx, func(tx Tx) error {
			rep = before
			rep.Projects = append([]ProjectMigrated(nil), before.Projects...)
			rep.Unmapped = append([]Unmapped(nil), before.Unmapped...)
			mg, err := s.newMigrator(ctx, tx, a, &m, opts, &rep)
			if err != nil {
				return err
			}
			return mg.project(i)
		})
		if err != nil {
			rep = before
			rep.Projects = append(rep.Projects, ProjectMigrated{Path: m.Projects[i].Title, Failed: err})
			return rep, err
		}
	}
	return rep, nil
}

// checkMigration refuses what no transaction should start on: an unknown
// source, a bad key, a project whose parent is not before it.
func (s *Service) checkMigration(m *Migration, opts MigrateOptions) error {
	if !has(Sources, m.Source) {
		return Errorf(CodeInvalid, "no importer reads %q; one of %s", m.Source, joinWords(Sources))
	}
	if opts.Project != "" {
		if err := checkProjectKey("--project", opts.Project); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for _, p := range m.Projects {
		if p.Parent != "" && !seen[p.Parent] {
			return Errorf(CodeInvalid, "%s: project %q sits in a project that is not before it", p.Where, p.Title)
		}
		seen[p.ExternalID] = true
	}
	return nulFree(m)
}

// nulFree refuses a migration with U+0000 in any text, naming the record,
// as the API refuses it in a request body: SQLite keeps such text, but
// much that reads it back (C strings, terminals, other databases) cuts it
// short. (Bytes that are not UTF-8 the readers have made U+FFFD already,
// as encoding/json does of a request body.)
func nulFree(m *Migration) error {
	for _, p := range m.Projects {
		if err := refuseNUL(p.Where, p.ExternalID, p.Key, p.Title, p.Description, p.Parent); err != nil {
			return err
		}
		for _, t := range p.Tasks {
			texts := append([]string{t.ExternalID, t.Title, t.Description, t.Parent, t.Type, t.When, t.Timezone, t.Repeat,
				t.Status, t.Assignee}, t.Tags...)
			if err := refuseNUL(t.Where, texts...); err != nil {
				return err
			}
			for _, c := range t.Comments {
				if err := refuseNUL(c.Where, c.ExternalID, c.Author, c.Body); err != nil {
					return err
				}
			}
		}
	}
	for _, l := range m.Links {
		if err := refuseNUL(l.Where, l.From, l.To, l.Type); err != nil {
			return err
		}
	}
	return nil
}

// InertRefs writes each "#12" of a text another tool wrote as prefix#12,
// the way GitHub writes an issue of another repository: that tool's #12 is
// not tend's item #12, and a "#12" tend reads as a word of its own
// (mentionRe) would become a mention of whatever tend item has that ref.
// A letter or a digit before the '#' is what keeps it inert, so a prefix
// loses what it ends in otherwise (a repository "widgets-" is written
// widgets#12), and one with nothing left is "ref".
func InertRefs(text, prefix string) string {
	if !strings.Contains(text, "#") {
		return text
	}
	prefix = strings.TrimRightFunc(prefix, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if prefix == "" {
		prefix = "ref"
	}
	return mentionRe.ReplaceAllStringFunc(text, func(m string) string {
		i := strings.IndexByte(m, '#')
		return m[:i] + prefix + m[i:]
	})
}

func refuseNUL(where string, texts ...string) error {
	for _, s := range texts {
		if strings.IndexByte(s, 0) >= 0 {
			return Errorf(CodeInvalid, "%s: text may not contain U+0000 (a NUL byte)", where)
		}
	}
	return nil
}

// migrator is one project's transaction of a migration (or, dry, all of them).
type migrator struct {
	s    *Service
	ctx  context.Context
	tx   Tx
	a    Actor
	m    *Migration
	opts MigrateOptions
	rep  *MigrationReport
	sc   *scope
	cur  *ProjectMigrated
	// tasks maps the tool's task ids to tend's, for the tasks written or
	// found in this transaction.
	tasks map[string]TaskLocation
}

func (s *Service) newMigrator(ctx context.Context, tx Tx, a Actor, m *Migration, opts MigrateOptions, rep *MigrationReport) (*migrator, error) {
	sc, err := inWorkspace(ctx, tx, a, opts.Workspace)
	if err != nil {
		return nil, err
	}
	return &migrator{s: s, ctx: ctx, tx: tx, a: a, m: m, opts: opts, rep: rep, sc: sc, tasks: map[string]TaskLocation{}}, nil
}

// refresh reads the caller's scope again, after a project was created.
func (mg *migrator) refresh() error {
	sc, err := inWorkspace(mg.ctx, mg.tx, mg.a, mg.sc.ws.Workspace.ID)
	mg.sc = sc
	return err
}

func (mg *migrator) ext(kind, id string) string { return kind + ":" + id }

func (mg *migrator) lookup(kind, id string) (ExternalRef, bool, error) {
	if id == "" {
		return ExternalRef{}, false, nil
	}
	ref, err := mg.tx.ExternalEntity(mg.ctx, mg.sc.ws.Workspace.ID, mg.m.Source, mg.ext(kind, id))
	if CodeOf(err) == CodeNotFound {
		return ExternalRef{}, false, nil
	}
	return ref, err == nil, err
}

func (mg *migrator) remember(kind, id string, ref ExternalRef) error {
	if id == "" {
		return nil
	}
	return mg.tx.PutExternalID(mg.ctx, mg.sc.ws.Workspace.ID, mg.m.Source, mg.ext(kind, id), ref, mg.tx.Now())
}

func (mg *migrator) unmapped(where, what, why string, args ...any) {
	mg.rep.Unmapped = append(mg.rep.Unmapped, Unmapped{Where: where, What: what, Why: fmt.Sprintf(why, args...)})
}

// project writes the i-th project of the migration, its tasks and every
// link both of whose ends are now written.
func (mg *migrator) project(i int) error {
	p := &mg.m.Projects[i]
	n, created, err := mg.placeProject(p)
	if err != nil {
		return atWhere(p.Where, err)
	}
	mg.rep.Projects = append(mg.rep.Projects, ProjectMigrated{Key: n.Key, Path: n.Path, Created: created})
	mg.cur = &mg.rep.Projects[len(mg.rep.Projects)-1]
	for _, t := range parentsFirst(p.Tasks) {
		if err := mg.task(n, t); err != nil {
			return atWhere(t.Where, err)
		}
	}
	return mg.links()
}

// placeProject finds the project an earlier import of the same tool wrote
// for p, or the one --project names, or creates it.
func (mg *migrator) placeProject(p *MigratedProject) (*projectNode, bool, error) {
	if ref, ok, err := mg.lookup("project", p.ExternalID); err != nil {
		return nil, false, err
	} else if n := mg.sc.byID[ref.EntityID]; ok && n.visible() {
		return n, false, nil
	}
	parent, key := "", ""
	switch {
	case p.Inbox && p.Parent == "" && mg.opts.Project == "":
		n, err := mg.sc.inbox()
		if err != nil {
			return nil, false, err
		}
		return n, false, mg.remember("project", p.ExternalID, ExternalRef{EntityType: "project", EntityID: n.ID})
	case p.Parent != "":
		ref, ok, err := mg.lookup("project", p.Parent)
		if err != nil {
			return nil, false, err
		}
		if n := mg.sc.byID[ref.EntityID]; ok && n.visible() {
			parent = n.Key
		}
	case mg.opts.Project != "" && mg.topLevel() == 1:
		key = mg.opts.Project
	case mg.opts.Project != "":
		into, err := mg.ensureProject(mg.opts.Project, mg.opts.Project, "")
		if err != nil {
			return nil, false, err
		}
		parent = into.Key
	}
	if key != "" {
		if n, err := mg.sc.project(key); err == nil {
			return n, false, mg.remember("project", p.ExternalID, ExternalRef{EntityType: "project", EntityID: n.ID})
		}
	} else if k := strings.ToLower(p.Key); checkProjectKey("key", k) == nil && mg.sc.byKey[k] == nil {
		key = k
	} else {
		key = mg.sc.freeKey(p.Title)
	}
	n, err := mg.ensureProject(key, p.Title, parent)
	if err != nil {
		return nil, false, err
	}
	if p.Description != "" && n.Description == "" {
		up := ProjectUpdate{Description: set(p.Description)}
		if err := mg.s.validateProjectUpdate(up); err != nil {
			return nil, false, err
		}
		if _, err := mg.s.updateProject(mg.ctx, mg.tx, mg.a, mg.sc, n, up); err != nil {
			return nil, false, err
		}
		if err := mg.refresh(); err != nil {
			return nil, false, err
		}
		n = mg.sc.byID[n.ID]
	}
	return n, true, mg.remember("project", p.ExternalID, ExternalRef{EntityType: "project", EntityID: n.ID})
}

// topLevel counts the migration's projects outside any other.
func (mg *migrator) topLevel() int {
	n := 0
	for _, p := range mg.m.Projects {
		if p.Parent == "" {
			n++
		}
	}
	return n
}

// ensureProject is the project of key, created (in parent) when missing.
func (mg *migrator) ensureProject(key, title, parent string) (*projectNode, error) {
	if n, err := mg.sc.project(key); err == nil {
		return n, nil
	}
	in := ProjectCreate{Key: key, Title: title, Parent: parent}
	if err := mg.s.validateProjectCreate(&in); err != nil {
		return nil, err
	}
	if _, err := mg.s.createProject(mg.ctx, mg.tx, mg.a, mg.sc, in); err != nil {
		return nil, err
	}
	if err := mg.refresh(); err != nil {
		return nil, err
	}
	return mg.sc.project(key)
}

// atWhere names the record of the file an error is about.
func atWhere(where string, err error) error {
	e := AsError(err)
	if e == nil || e.Code == CodeInternal || where == "" {
		return err
	}
	c := *e
	c.Detail = where + ": " + e.Detail
	if len(c.Fields) > 0 {
		c.Fields = append([]FieldError(nil), e.Fields...)
		for i := range c.Fields {
			c.Fields[i].Msg = where + ": " + c.Fields[i].Msg
		}
	}
	return &c
}

// parentsFirst orders tasks so that each comes after its parent (when the
// parent is among them), keeping the file's order otherwise.
func parentsFirst(ts []MigratedTask) []*MigratedTask {
	byID := map[string]*MigratedTask{}
	for i := range ts {
		if ts[i].ExternalID != "" {
			byID[ts[i].ExternalID] = &ts[i]
		}
	}
	out := make([]*MigratedTask, 0, len(ts))
	placed := map[*MigratedTask]bool{}
	var place func(t *MigratedTask, depth int)
	place = func(t *MigratedTask, depth int) {
		if placed[t] {
			return
		}
		placed[t] = true
		if p := byID[t.Parent]; p != nil && depth < len(ts) {
			place(p, depth+1)
		}
		out = append(out, t)
	}
	for i := range ts {
		place(&ts[i], 0)
	}
	return out
}
