package main

import (
	"github.com/spf13/cobra"

	"tend/app"
	"tend/web/wire"
)

func newExportCmd(dbPath *string) *cobra.Command {
	var workspace string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write every record of the instance, or of one workspace, as JSON lines",
		Long: `Write every record the instance's workspaces hold (or, with --workspace,
one workspace's) to stdout: JSON lines, a header first and a count last,
read from one consistent snapshot (safe while the server runs) and
streamed, never whole in memory. tend import reads it back.

The file holds no secret: no credential, session or sign-in link, and
calendar feeds without their secrets (docs/data.md).`,
		Example: `  tend export > tend.jsonl
  tend export --workspace default > default.jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return onService(cmd.Context(), *dbPath, func(svc *app.Service) error {
				return svc.Export(cmd.Context(), app.SystemActor("cli"), workspace, wire.NewExportEncoder(cmd.OutOrStdout(), nil))
			})
		},
	}
	cmd.Flags().StringVar(&workspace, "workspace", "", "export this workspace only (slug or id); default: every workspace")
	return cmd
}
