package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/store"
	"tend/web"
)

func newSignInCmd(dbPath *string) *cobra.Command {
	var user, publicURL, addr string
	cmd := &cobra.Command{
		Use:   "signin",
		Short: "Print a single-use sign-in link for a browser",
		Long: `Mint a sign-in link directly on the database file, with the authority of
whoever can open it, and print its URL once on stdout. The link signs one
browser in once and expires after a few minutes. Works while the server is
running. Without --user the link is for the oldest active administrator.`,
		Example: `  tend signin --user alice
  tend signin --user alice --public-url https://tend.example.ts.net`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, svc, err := openService(cmd.Context(), *dbPath, store.Options{}, publicURL)
			if err != nil {
				return err
			}
			defer db.Close()
			if _, err := svc.Bootstrap(cmd.Context(), app.BootstrapOptions{Timezone: localTimezone(), NoToken: true}); err != nil {
				return err
			}
			l, err := svc.LocalLoginLink(cmd.Context(), user)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), web.SignInURL(baseURL(publicURL, addr), l.Secret))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&user, "user", "", "account the link signs in (default: the oldest active administrator)")
	fl.StringVar(&publicURL, "public-url", envOr("TEND_PUBLIC_URL", ""), "the URL users reach this instance at (env TEND_PUBLIC_URL)")
	fl.StringVar(&addr, "addr", envOr("TEND_ADDR", "127.0.0.1:8421"), "the address tend serve listens on, used without --public-url (env TEND_ADDR)")
	return cmd
}
