package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/app/from"
	"tend/cli"
	"tend/store"
	"tend/web/wire"
)

func newImportCmd(dbPath *string) *cobra.Command {
	var dryRun bool
	var f migrateFlags
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Read an export back in, or another tool's (--from); FILE - reads stdin",
		Long: `Read a file tend export wrote, in one transaction: all of it or nothing.

Into a database that does not exist yet (--db PATH) it creates the instance
from the file and reproduces it exactly: ids, refs, history. Into an
instance in use, each workspace of the file becomes a new workspace (a slug
already taken gets a suffix such as -2), its accounts are the accounts here
with the same username or are created, and if the file's workspaces are
here already (importing an export back as a copy) every row gets a new id.

--dry-run reads and checks everything and reports what would be written,
then writes nothing. The import holds the database's writer while it runs:
a big one is best run with the server stopped.

With --from todoist, vikunja, beads or github it reads what that tool
exports instead (docs/data.md says which file and how each maps) into a
workspace of an existing database (on a new machine the default database
is created first, as tend add creates it), as --as (default: the oldest active
administrator), one transaction per project. --project KEY names the
project it goes into. Each item keeps its id in that tool, so importing the
same file again updates what the first import wrote: a field follows the
file only where the file changed it since the last import, so what was
changed in tend stays, and a field changed on both sides keeps tend's value
and is listed as a conflict. --max-size MIB (256) bounds what it reads;
--json prints the report as JSON.`,
		Example: `  tend export > tend.jsonl
  tend import tend.jsonl --db /srv/new/tend.db
  tend import tend.jsonl --dry-run
  tend import --from todoist Groceries.csv --project groceries --dry-run
  tend import --from github issues.json --project web --workspace default
  tend import --from beads .beads/issues.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, closeIn, err := openInput(cmd, args[0])
			if err != nil {
				return err
			}
			defer closeIn()
			if f.from != "" {
				return migrate(cmd, *dbPath, in, args[0], f, dryRun)
			}
			if f.project != "" || f.workspace != "" || f.as != "" || f.json || cmd.Flags().Changed("max-size") {
				return cli.UsageError{Err: errors.New("--project, --workspace, --as, --json and --max-size go with --from; a tend export brings its own workspaces")}
			}
			// The header is read first, so that a file that is no export
			// creates no database.
			dec := wire.NewExportDecoder(in)
			if _, err := dec.Header(); err != nil {
				return err
			}
			rep, err := importExport(cmd, *dbPath, dec, dryRun)
			if err != nil {
				return err
			}
			return printImport(cmd.OutOrStdout(), rep)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&dryRun, "dry-run", false, "check the file and report what would be written; write nothing")
	fl.StringVar(&f.from, "from", "", "read another tool's export: todoist, vikunja, beads or github")
	fl.StringVar(&f.project, "project", "", "with --from: the project key to import into (created if missing)")
	fl.StringVar(&f.workspace, "workspace", "", "with --from: the workspace (slug or id); default: the account's only one")
	fl.StringVar(&f.as, "as", "", "with --from: the account that writes (default: the oldest active administrator)")
	fl.BoolVar(&f.json, "json", false, "with --from: print the report as JSON")
	fl.Int64Var(&f.maxMiB, "max-size", from.DefaultMaxSize>>20, "with --from: the most the file, or the data.json a Vikunja zip unpacks, may hold, in MiB")
	return cmd
}

// importExport imports into the database at dbPath, creating it when it
// does not exist; a database it created is removed again when the import
// fails or is a dry run, so that nothing is left behind.
func importExport(cmd *cobra.Command, dbPath string, src app.RecordReader, dryRun bool) (app.ImportReport, error) {
	created := cli.RequireDatabase(dbPath) != nil
	db, svc, err := createService(cmd.Context(), dbPath, store.Options{}, app.Options{})
	if err != nil {
		return app.ImportReport{}, err
	}
	rep, err := svc.Import(cmd.Context(), app.SystemActor("cli"), src, dryRun)
	err = errors.Join(err, db.Close())
	if created && (err != nil || dryRun) {
		for _, p := range []string{dbPath, dbPath + "-wal", dbPath + "-shm", dbPath + ".lock"} {
			_ = os.Remove(p)
		}
	}
	return rep, err
}

// openInput opens FILE, or stdin for "-".
func openInput(cmd *cobra.Command, name string) (io.Reader, func(), error) {
	if name == "-" {
		return cmd.InOrStdin(), func() {}, nil
	}
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, app.Errorf(app.CodeNotFound, "no file %s to import", name)
	}
	if err != nil {
		return nil, nil, err
	}
	return f, func() { _ = f.Close() }, nil
}

// accountLine says what an import did with an account and every right the
// account has by it.
func accountLine(u app.ImportedUser) string {
	line := u.Outcome
	if u.Local != u.Username {
		line += ": " + u.Local
	}
	if u.Administrator {
		line += "; instance administrator"
	}
	if u.AnswersTo != "" {
		line += "; answers to " + u.AnswersTo
	}
	for _, r := range u.Roles {
		if r.Project != "" {
			line += fmt.Sprintf("; %s of project %s in %s", r.Role, r.Project, r.Workspace)
		} else {
			line += fmt.Sprintf("; %s in %s", r.Role, r.Workspace)
		}
	}
	return line
}

func printImport(w io.Writer, rep app.ImportReport) error {
	if rep.DryRun {
		fmt.Fprintln(w, "dry run: nothing was written; an import would write:")
	}
	if rep.InstanceCreated {
		fmt.Fprintln(w, "the instance, from the file (the database held none)")
	}
	if rep.NewIDs {
		fmt.Fprintln(w, "new ids for every row: the file's workspaces are on this instance already")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, ws := range rep.Workspaces {
		if ws.Slug != ws.FileSlug {
			fmt.Fprintf(tw, "workspace\t%s\tas %s (%s is taken)\n", ws.FileSlug, ws.Slug, ws.FileSlug)
		} else {
			fmt.Fprintf(tw, "workspace\t%s\n", ws.Slug)
		}
	}
	for _, u := range rep.Users {
		fmt.Fprintf(tw, "account\t%s\t%s\n", u.Username, accountLine(u))
	}
	for _, c := range rep.Records {
		fmt.Fprintf(tw, "records\t%s\t%d\n", c.Kind, c.Count)
	}
	return tw.Flush()
}
