package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/web/wire"
)

// The invite commands: one call of /v1/workspaces/{ws}/invites each
// (docs/api.md, "Invites").

func newInviteCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.role": "--role", "body.max_uses": "--uses", "body.expires_in": "--expires", "body.note": "--note"}
	var in wire.InviteCreate
	cmd := w.call(&cobra.Command{
		Use:   "invite --role ROLE [--uses N] [--expires 7d] [--note TEXT]",
		Short: "Make an invite link that lets people join the workspace; list and revoke invites",
		Long: `An invite is a link that lets people without an account join the workspace
with a role: they pick a username and a timezone and come in signed in. The
link is printed once (only its hash is kept). Workspace owners and admins
make, list and revoke them; an invite lets in one person unless --uses says
more (at most 100), and lasts 7 days unless --expires says otherwise (at most
30d).`,
		Example: `  tend invite --role member --uses 3 --expires 2d --note "Welcome to the team"
  tend invite list`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
	}, func(ctx context.Context, s *session, _ []string) error {
		i, err := s.c.AddInvite(ctx, in)
		if err != nil {
			return err
		}
		i.URL = joinLink(i.URL, s.c.WebURL())
		if s.p.Format == FormatJSON {
			return s.p.JSON(i)
		}
		s.p.line("invite %s", strings.Join(inviteLine(i.Invite), "  "))
		s.p.line("link %s (shown once)", i.URL)
		return nil
	})
	fl := cmd.Flags()
	fl.StringVar(&in.Role, "role", "", "the role they join with: "+strings.Join(roleKeys(), ", "))
	fl.IntVar(&in.MaxUses, "uses", 1, "how many people may join by it (1 to 100)")
	fl.StringVar(&in.ExpiresIn, "expires", "7d", "how long it lasts: 30m, 12h, 7d, at most 30d")
	fl.StringVar(&in.Note, "note", "", "a note the join page shows")
	_ = cmd.RegisterFlagCompletionFunc("role", cobra.FixedCompletions(roleKeys(), cobra.ShellCompDirectiveNoFileComp))
	cmd.AddCommand(newInviteListCmd(env, dbPath), newInviteRevokeCmd(env, dbPath))
	return cmd
}

func roleKeys() []string {
	out := make([]string, len(app.Roles))
	for n, r := range app.Roles {
		out[n] = r.Key
	}
	return out
}

// joinLink is the link an invite answer carries, under the address tend
// serve was last reached at (else its default) when the answer came from
// the database file, whose in-process server knows no host.
func joinLink(link, web string) string {
	u, err := url.Parse(link)
	if err != nil || u.Host != "" {
		return link
	}
	if web == "" {
		web = "http://" + DefaultAddr
	}
	return strings.TrimRight(web, "/") + u.Path
}

func newInviteListCmd(env *Env, dbPath *string) *cobra.Command {
	return listCmd(newWork(env, dbPath), &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "The workspace's invites, pending and past, with who joined by each",
		Example: `  tend invite list`,
		Args:    cobra.NoArgs,
	}, Client.Invites, linesOf("invites", inviteLine))
}

func newInviteRevokeCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	return w.call(&cobra.Command{
		Use:               "revoke ID",
		Short:             "Revoke an invite; those who joined by it stay",
		Example:           `  tend invite revoke "$(tend invite --role member --json | jq -r .id)"`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
	}, func(ctx context.Context, s *session, args []string) error {
		if err := s.c.RevokeInvite(ctx, args[0]); err != nil {
			return err
		}
		s.p.line("revoked %s", args[0])
		return nil
	})
}

// inviteLine is an invite in one line: id, role, state, uses, expiry, who joined.
func inviteLine(i wire.Invite) []string {
	out := []string{i.ID, i.Role, i.State, fmt.Sprintf("%d of %d used", i.Uses, i.MaxUses), "expires " + i.ExpiresAt}
	var who []string
	for _, u := range i.UsedBy {
		who = append(who, u.Username)
	}
	if len(who) > 0 {
		out = append(out, "joined: "+strings.Join(who, ", "))
	}
	if i.Note != "" {
		out = append(out, i.Note)
	}
	return out
}

// invitesPath is the invites of the workspace the client works in: the one
// named, else the only one the caller reaches.
func (r *Remote) invitesPath(ctx context.Context) (string, error) {
	ws := r.workspace
	if ws == "" {
		me, err := r.Me(ctx)
		if err != nil {
			return "", err
		}
		if len(me.Workspaces) != 1 {
			return "", problemOf(app.Errorf(app.CodeWorkspaceRequired, "you reach %d workspaces; name one with --workspace", len(me.Workspaces)))
		}
		ws = me.Workspaces[0].Slug
	}
	return "/v1/workspaces/" + url.PathEscape(ws) + "/invites", nil
}

// AddInvite is POST /v1/workspaces/{ws}/invites.
func (r *Remote) AddInvite(ctx context.Context, in wire.InviteCreate) (wire.IssuedInvite, error) {
	p, err := r.invitesPath(ctx)
	if err != nil {
		return wire.IssuedInvite{}, err
	}
	return get[wire.IssuedInvite](ctx, r, http.MethodPost, p, nil, in)
}

// Invites is GET /v1/workspaces/{ws}/invites.
func (r *Remote) Invites(ctx context.Context) ([]wire.Invite, error) {
	p, err := r.invitesPath(ctx)
	if err != nil {
		return nil, err
	}
	return items[wire.Invite](ctx, r, p, nil)
}

// RevokeInvite is DELETE /v1/workspaces/{ws}/invites/{id}.
func (r *Remote) RevokeInvite(ctx context.Context, id string) error {
	p, err := r.invitesPath(ctx)
	if err != nil {
		return err
	}
	return r.call(ctx, http.MethodDelete, p+"/"+url.PathEscape(strings.TrimSpace(id)), nil, nil, nil)
}
