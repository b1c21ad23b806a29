package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tend/cli"
	"tend/store"
)

func newRestoreCmd(dbPath *string) *cobra.Command {
	var dir, fromReplica, at string
	cmd := &cobra.Command{
		Use:   "restore [BACKUP]",
		Short: "Replace the database with a backup, or with a replica's copy",
		Long: `Replace the database with a backup (a name from tend backup list, or a
path), or with what a replica held (--from-replica URL, the latest or the
point in time --at names).

The copy is checked with PRAGMA integrity_check first, a schema newer than
this binary is refused, an older one is migrated forward. The current
database is never deleted: it is moved aside, with its -wal and -shm, to
<db>.before-restore-<UTC time>, and restoring that file brings it back.

tend restore refuses to run while a server or any other tend command has
the database open: stop tend serve first. Restoring into a file that does
not exist yet (--db PATH) needs nothing stopped: that is how to try a
backup or a replica without touching the live database.`,
		Example: `  tend backup list
  tend restore tend-20260702T101500.000Z-routine-0014_task_rev.db
  tend restore /mnt/usb/tend-20260702T101500.000Z-routine-0014_task_rev.db
  tend restore --from-replica s3://my-bucket/tend --db /tmp/drill.db
  tend restore --from-replica file:///srv/tend-replica --at 2026-07-02T10:00:00Z`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var (
				rep store.RestoreReport
				err error
			)
			switch {
			case len(args) == 1 && fromReplica != "":
				return cli.UsageError{Err: errors.New("name a backup or --from-replica, not both")}
			case len(args) == 1 && at != "":
				return cli.UsageError{Err: errors.New("--at picks a point in a replica's history: use it with --from-replica")}
			case len(args) == 1:
				rep, err = store.RestoreFile(cmd.Context(), backupSource(*dbPath, dir, args[0]), *dbPath)
			case fromReplica != "":
				var when time.Time
				if at != "" {
					if when, err = time.Parse(time.RFC3339, at); err != nil {
						return cli.UsageError{Err: fmt.Errorf("--at wants an RFC 3339 time such as 2026-07-02T10:00:00Z, not %q", at)}
					}
				}
				rep, err = store.RestoreReplica(cmd.Context(), fromReplica, when, *dbPath)
			default:
				return cli.UsageError{Err: errors.New("name a backup (see tend backup list) or give --from-replica URL")}
			}
			if err != nil {
				return err
			}
			printRestore(cmd.OutOrStdout(), rep)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&dir, "dir", "", "where to look for a backup named without a path (default: backups/ beside the database)")
	fl.StringVar(&fromReplica, "from-replica", "", "restore from a replica: file:///path, s3://bucket/path?endpoint=URL or sftp://user@host/path")
	fl.StringVar(&at, "at", "", "with --from-replica: the point in time to restore, RFC 3339 (default: the latest)")
	return cmd
}

// backupSource finds a backup: a bare name is looked up in the backup
// directory first, as tend backup list shows it; anything else is a path.
func backupSource(dbPath, dir, arg string) string {
	if strings.ContainsRune(arg, filepath.Separator) {
		return arg
	}
	if dir == "" {
		dir = filepath.Join(filepath.Dir(dbPath), "backups")
	}
	if in := filepath.Join(dir, arg); fileExists(in) {
		return in
	}
	return arg
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func printRestore(w io.Writer, rep store.RestoreReport) {
	from := rep.From
	if !rep.At.IsZero() {
		from += " as of " + rep.At.UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(w, "restored %s into %s\n", from, rep.Path)
	if rep.SchemaFrom != rep.SchemaTo {
		fmt.Fprintf(w, "schema %s, migrated to %s\n", rep.SchemaFrom, rep.SchemaTo)
	} else {
		fmt.Fprintf(w, "schema %s\n", rep.SchemaTo)
	}
	newest := "none"
	if !rep.NewestEvent.IsZero() {
		newest = rep.NewestEvent.UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(w, "%d tasks, %d documents, %d projects; newest event %s\n", rep.Tasks, rep.Documents, rep.Projects, newest)
	if rep.Aside != "" {
		fmt.Fprintf(w, "the previous database is kept as %s (tend restore %s brings it back)\n", rep.Aside, rep.Aside)
	}
}
