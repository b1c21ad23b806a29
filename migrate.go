package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/app/from"
	"tend/cli"
)

// migrateFlags are tend import's flags for another tool's file; maxMiB
// bounds what a reader takes in (from.DefaultMaxSize unless raised); json
// prints the report as JSON.
type migrateFlags struct {
	from, project, workspace, as string
	maxMiB                       int64
	json                         bool
}

// migrate reads another tool's export and writes it into the database.
func migrate(cmd *cobra.Command, dbPath string, in io.Reader, name string, f migrateFlags, dryRun bool) error {
	var m app.Migration
	var err error
	if f.maxMiB < 1 {
		return cli.UsageError{Err: fmt.Errorf("--max-size is a number of MiB, 1 or more, not %d", f.maxMiB)}
	}
	max := f.maxMiB << 20
	switch f.from {
	case "todoist":
		project := f.project
		if project == "" {
			project = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
		}
		m, err = from.Todoist(in, project, max)
	case "vikunja":
		m, err = from.Vikunja(in, max)
	case "beads":
		m, err = from.Beads(in, max)
	case "github":
		project := f.project
		if project == "" {
			project = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
		}
		m, err = from.GitHub(in, project, max)
	default:
		return cli.UsageError{Err: fmt.Errorf("--from is one of %s, not %q", strings.Join(app.Sources, ", "), f.from)}
	}
	if err != nil {
		return err
	}
	open := onService
	if cli.FirstUse(cmd, dbPath, os.Getenv) {
		// As tend add does on a new machine: the default file is created.
		open = func(ctx context.Context, dbPath string, fn func(*app.Service) error) error {
			return onNewService(ctx, dbPath, cmd.ErrOrStderr(), fn)
		}
	}
	return open(cmd.Context(), dbPath, func(svc *app.Service) error {
		sess, err := svc.LocalActor(cmd.Context(), f.as)
		if err != nil {
			return err
		}
		rep, err := svc.Migrate(cmd.Context(), sess.Actor, m, app.MigrateOptions{Workspace: f.workspace, Project: f.project, DryRun: dryRun})
		if f.json {
			return errors.Join(err, json.NewEncoder(cmd.OutOrStdout()).Encode(newMigrationJSON(rep)))
		}
		printMigration(cmd.OutOrStdout(), rep)
		return err
	})
}

func printMigration(w io.Writer, rep app.MigrationReport) {
	if rep.DryRun {
		fmt.Fprintf(w, "dry run: nothing was written; importing from %s would write:\n", rep.Source)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range rep.Projects {
		if p.Failed != nil {
			fmt.Fprintf(tw, "project\t%s\tnot imported: %v\n", p.Path, p.Failed)
			continue
		}
		how := "existing"
		if p.Created {
			how = "created"
		}
		fmt.Fprintf(tw, "project\t%s\t%s; tasks %d created, %d updated, %d unchanged; comments %d created, %d updated; links %d created\n",
			p.Path, how, p.TasksCreated, p.TasksUpdated, p.TasksUnchanged, p.CommentsCreated, p.CommentsUpdated, p.LinksCreated)
		for _, lt := range p.LinkTypesCreated {
			fmt.Fprintf(tw, "link type\t%s\tcreated\n", lt)
		}
		for _, t := range p.Tasks {
			if len(t.Updated) > 0 {
				fmt.Fprintf(tw, "  updated\t#%d %s\t%s\n", t.Ref, t.Title, strings.Join(t.Updated, ", "))
			}
			for _, c := range t.Conflicts {
				fmt.Fprintf(tw, "  conflict\t#%d %s\t%s changed in tend and in the file: kept %q, the file has %q\n", t.Ref, t.Title, c.Field, c.Kept, c.File)
			}
		}
	}
	_ = tw.Flush()
	if len(rep.Unmapped) > 0 {
		fmt.Fprintf(w, "not imported as it was (%d):\n", len(rep.Unmapped))
		for _, u := range rep.Unmapped {
			fmt.Fprintf(w, "  %s: %q: %s\n", u.Where, u.What, u.Why)
		}
	}
}

// migrationJSON is tend import --from --json's report: what
// printMigration prints, one JSON document.
type migrationJSON struct {
	Source   string             `json:"source"`
	DryRun   bool               `json:"dry_run"`
	Projects []projectMigration `json:"projects"`
	Unmapped []unmappedJSON     `json:"unmapped"`
}

type projectMigration struct {
	Key              string          `json:"key,omitempty"`
	Path             string          `json:"path"`
	Created          bool            `json:"created"`
	TasksCreated     int             `json:"tasks_created"`
	TasksUpdated     int             `json:"tasks_updated"`
	TasksUnchanged   int             `json:"tasks_unchanged"`
	CommentsCreated  int             `json:"comments_created"`
	CommentsUpdated  int             `json:"comments_updated"`
	LinksCreated     int             `json:"links_created"`
	LinkTypesCreated []string        `json:"link_types_created"`
	Tasks            []taskMigration `json:"tasks"`
	Error            string          `json:"error,omitempty"`
}

type taskMigration struct {
	Ref       int64          `json:"ref"`
	Title     string         `json:"title"`
	Where     string         `json:"where"`
	Updated   []string       `json:"updated"`
	Conflicts []conflictJSON `json:"conflicts"`
}

type conflictJSON struct {
	Field string `json:"field"`
	Kept  string `json:"kept"`
	File  string `json:"file"`
}

type unmappedJSON struct {
	Where string `json:"where"`
	What  string `json:"what"`
	Why   string `json:"why"`
}

func newMigrationJSON(rep app.MigrationReport) migrationJSON {
	out := migrationJSON{Source: rep.Source, DryRun: rep.DryRun, Projects: []projectMigration{}, Unmapped: []unmappedJSON{}}
	for _, p := range rep.Projects {
		pj := projectMigration{Key: p.Key, Path: p.Path, Created: p.Created, TasksCreated: p.TasksCreated, TasksUpdated: p.TasksUpdated,
			TasksUnchanged: p.TasksUnchanged, CommentsCreated: p.CommentsCreated, CommentsUpdated: p.CommentsUpdated, LinksCreated: p.LinksCreated,
			LinkTypesCreated: append([]string{}, p.LinkTypesCreated...), Tasks: []taskMigration{}}
		if p.Failed != nil {
			pj.Error = p.Failed.Error()
		}
		for _, t := range p.Tasks {
			tj := taskMigration{Ref: t.Ref, Title: t.Title, Where: t.Where, Updated: append([]string{}, t.Updated...), Conflicts: []conflictJSON{}}
			for _, c := range t.Conflicts {
				tj.Conflicts = append(tj.Conflicts, conflictJSON(c))
			}
			pj.Tasks = append(pj.Tasks, tj)
		}
		out.Projects = append(out.Projects, pj)
	}
	for _, u := range rep.Unmapped {
		out.Unmapped = append(out.Unmapped, unmappedJSON(u))
	}
	return out
}
