package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/app/from"
	"tend/cli"
)

// migrateFlags are tend import's flags for another tool's file; maxMiB
// bounds what a reader takes in (from.DefaultMaxSize unless raised).
type migrateFlags struct {
	from, project, workspace, as string
	maxMiB                       int64
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
	return onService(cmd.Context(), dbPath, func(svc *app.Service) error {
		sess, err := svc.LocalActor(cmd.Context(), f.as)
		if err != nil {
			return err
		}
		rep, err := svc.Migrate(cmd.Context(), sess.Actor, m, app.MigrateOptions{Workspace: f.workspace, Project: f.project, DryRun: dryRun})
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
	}
	_ = tw.Flush()
	if len(rep.Unmapped) > 0 {
		fmt.Fprintf(w, "not imported as it was (%d):\n", len(rep.Unmapped))
		for _, u := range rep.Unmapped {
			fmt.Fprintf(w, "  %s: %q: %s\n", u.Where, u.What, u.Why)
		}
	}
}
