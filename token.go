package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/cli"
)

func newTokenCmd(dbPath *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Issue, list and revoke API tokens directly on the database file",
		Long: `Manage credentials directly on the database file, with the authority of
whoever can open it. Works while the server is running.`,
	}
	cmd.AddCommand(newTokenIssueCmd(dbPath), newTokenListCmd(dbPath), newTokenRevokeCmd(dbPath))
	return cmd
}

type issueFlags struct {
	user, agentOf, scopes, expires, workspace, projects, writeProjects, title string
}

func newTokenIssueCmd(dbPath *string) *cobra.Command {
	var f issueFlags
	cmd := &cobra.Command{
		Use:   "issue",
		Short: "Issue a credential and print its secret once",
		Long: `Issue a credential and print its secret, once, on stdout, and nothing else.

A --user that does not exist is created and joins the --workspace (or the
oldest workspace) as a member; with --agent-of it is created as a service
account answering to that person. Without --user the credential is for the
oldest active administrator.`,
		Example: `  tend token issue
  tend token issue --user claude --agent-of alice --workspace default --scopes item:read,item:write --expires 30d
  tend token issue --user alice --projects web,api --write-projects web --title "laptop"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, err := f.request(time.Now())
			if err != nil {
				return err
			}
			return onLocalService(cmd.Context(), *dbPath, func(svc *app.Service) error {
				t, err := svc.IssueLocalToken(cmd.Context(), in)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), t.Secret)
				return nil
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.user, "user", "", "account the credential is for (created if missing)")
	fl.StringVar(&f.agentOf, "agent-of", "", "create --user as a service account answering to this person")
	fl.StringVar(&f.scopes, "scopes", "", "comma-separated scopes (default *: everything the account's roles grant)")
	fl.StringVar(&f.expires, "expires", "", "expiry: a duration such as 12h or 30d, or an RFC 3339 time (default: never)")
	fl.StringVar(&f.workspace, "workspace", "", "pin the credential to this workspace (slug or id)")
	fl.StringVar(&f.projects, "projects", "", "comma-separated projects the credential may read")
	fl.StringVar(&f.writeProjects, "write-projects", "", "comma-separated projects the credential may write in")
	fl.StringVar(&f.title, "title", "", "a name to recognise the credential by")
	return cmd
}

// request turns the flags into the Service's request.
func (f issueFlags) request(now time.Time) (app.LocalToken, error) {
	in := app.LocalToken{AgentOf: f.agentOf, TokenCreate: app.TokenCreate{Title: f.title, Username: f.user}}
	if f.scopes != "" {
		in.Scopes = splitList(f.scopes)
	}
	if f.expires != "" {
		at, err := parseExpiry(f.expires, now)
		if err != nil {
			return in, cli.UsageError{Err: err}
		}
		in.ExpiresAt = app.PatchOf(at)
	}
	if f.workspace != "" {
		in.Workspace = app.PatchOf(f.workspace)
	}
	if f.projects != "" {
		in.ProjectScope = app.PatchOf(splitList(f.projects))
	}
	if f.writeProjects != "" {
		in.ProjectWriteScope = app.PatchOf(splitList(f.writeProjects))
	}
	return in, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseExpiry reads "30d", "12h", "90m" or an RFC 3339 time.
func parseExpiry(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err == nil && days > 0 {
			return now.Add(time.Duration(days) * 24 * time.Hour), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return time.Time{}, fmt.Errorf("--expires %q: give a duration such as 12h or 30d, or an RFC 3339 time", s)
	}
	return now.Add(d), nil
}

func newTokenListCmd(dbPath *string) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List every credential, newest first (never a secret)",
		Example: "  tend token list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return onService(cmd.Context(), *dbPath, func(svc *app.Service) error {
				ts, err := svc.Tokens(cmd.Context(), app.SystemActor("cli"))
				if err != nil {
					return err
				}
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "PREFIX\tUSER\tTITLE\tSCOPES\tEXPIRES\tSTATE")
				now := time.Now()
				for _, t := range ts {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.Prefix, t.Username, t.Title, strings.Join(t.Scopes, ","), when(t.ExpiresAt), tokenState(t, now))
				}
				return tw.Flush()
			})
		},
	}
}

func newTokenRevokeCmd(dbPath *string) *cobra.Command {
	return &cobra.Command{
		Use:     "revoke ID_OR_PREFIX",
		Short:   "Revoke a credential at once",
		Example: "  tend token revoke tend_k3j9x2ab7q",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return onService(cmd.Context(), *dbPath, func(svc *app.Service) error {
				t, err := svc.RevokeToken(cmd.Context(), app.SystemActor("cli"), args[0])
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "revoked %s (%s, %s) at %s\n", t.Prefix, t.Username, t.Title, when(t.RevokedAt))
				return nil
			})
		},
	}
}

func when(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func tokenState(t app.Token, now time.Time) string {
	switch {
	case t.RevokedAt != nil:
		return "revoked"
	case !t.Usable(now):
		return "expired"
	}
	return "usable"
}
