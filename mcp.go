package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/cli"
	"tend/web"
)

func newMCPCmd(dbPath *string) *cobra.Command {
	var token string
	var lf logFlags
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the MCP tools over stdio",
		Long: `Serve tend's 15 MCP tools and its resources over stdin/stdout, for an agent
that starts tend itself. Every call acts as the account of the credential
given with --token or TEND_TOKEN, checked again on each call: revoking it,
or deactivating the person it answers to, stops the next call. stdout
carries only MCP messages; the log goes to stderr.`,
		Example: `  TEND_TOKEN=tend_… tend mcp --db ~/.local/share/tend/tend.db
  claude mcp add tend -e TEND_TOKEN=tend_… -- tend mcp`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if token == "" {
				return cli.UsageError{Err: errors.New("give the credential with --token or TEND_TOKEN")}
			}
			log, err := lf.logger(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			return serveMCP(cmd.Context(), log, cmd.InOrStdin(), cmd.OutOrStdout(), *dbPath, token)
		},
	}
	cmd.Flags().StringVar(&token, "token", os.Getenv("TEND_TOKEN"), "the credential to act as (env TEND_TOKEN)")
	addLogFlags(cmd, &lf)
	return cmd
}

// serveMCP serves MCP on stdin and stdout until stdin ends or ctx ends.
// The credential is checked once at the start, so a wrong one fails at
// once rather than on the first call.
func serveMCP(ctx context.Context, log *slog.Logger, stdin io.Reader, stdout io.Writer, dbPath, token string) error {
	return onService(ctx, dbPath, func(svc *app.Service) error {
		if _, err := svc.Authenticate(ctx, token, "mcp"); err != nil {
			return err
		}
		m := web.NewServer(svc, log).MCP()
		return m.ServeStdio(ctx, m.StdioIdentity(token), stdin, stdout)
	})
}
