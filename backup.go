package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"tend/cli"
	"tend/store"
)

func newBackupCmd(dbPath *string) *cobra.Command {
	var keep int
	var dir string
	cmd := &cobra.Command{
		Use:   "backup",
		Short: "Take a consistent backup of the live database",
		Long: `Take a consistent copy of the database, safe while the server writes. The
copy is written under a temporary name, checked with PRAGMA integrity_check
and only then renamed into place. It does not migrate the database, so it is
the thing to run before an upgrade.

--keep N keeps the newest N routine backups; copies taken before an upgrade
are never counted or removed.`,
		Example: `  tend backup
  tend backup --keep 7
  tend backup list`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if keep < 0 {
				return cli.UsageError{Err: fmt.Errorf("--keep is at least 1")}
			}
			if err := cli.RequireDatabase(*dbPath); err != nil {
				return err
			}
			b, err := store.BackupFile(cmd.Context(), *dbPath, dir, keep)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s\t%d bytes\tschema %s\n", b.Name, b.SizeBytes, b.SchemaHead)
			return nil
		},
	}
	cmd.Flags().IntVar(&keep, "keep", 0, "keep only the newest N routine backups (0 keeps all)")
	cmd.PersistentFlags().StringVar(&dir, "dir", "", "backup directory (default: backups/ beside the database)")
	cmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List backups, newest first",
		Long: `List the backups that can be restored, newest first: the name to give
tend restore, when the backup was taken (UTC) and why (routine, or upgrade
for the copy taken before migrations run), the schema it was taken at (a
schema newer than this binary's cannot be restored with it), and its size.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// No database is needed: listing what is left after the file
			// was lost is how a restore begins. Nothing is created.
			bs, err := store.ListBackups(*dbPath, dir)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tTAKEN AT\tFOR\tSCHEMA\tBYTES")
			for _, b := range bs {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\n", b.Name, b.TakenAt.Format(time.RFC3339), b.TakenFor, b.SchemaHead, b.SizeBytes)
			}
			return tw.Flush()
		},
	})
	return cmd
}
