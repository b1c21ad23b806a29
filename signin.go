package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/cli"
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
running. Without --user the link is for the oldest active administrator.

The link points at the public URL and address tend serve was last started
with on this file (it keeps them in the database); --public-url or --addr
(or TEND_PUBLIC_URL, TEND_ADDR) point it elsewhere.`,
		Example: `  tend signin --user alice
  tend signin --user alice --public-url https://tend.example.ts.net`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return onLocalService(cmd.Context(), *dbPath, func(svc *app.Service) error {
				l, err := svc.LocalLoginLink(cmd.Context(), user)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), web.SignInURL(signInBase(publicURL, addr, l.Serving), l.Secret))
				return nil
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&user, "user", "", "account the link signs in (default: the oldest active administrator)")
	fl.StringVar(&publicURL, "public-url", os.Getenv("TEND_PUBLIC_URL"), "the URL users reach this instance at (env TEND_PUBLIC_URL; default: the one tend serve was started with)")
	fl.StringVar(&addr, "addr", os.Getenv("TEND_ADDR"), "the address tend serve listens on, used without a public URL (env TEND_ADDR; default: where tend serve last listened, else "+cli.DefaultAddr+")")
	return cmd
}

// signInBase is where a printed link points: what this command was told,
// else what tend serve recorded when it last started, else the default
// address.
func signInBase(publicURL, addr string, sv app.Serving) string {
	switch {
	case publicURL != "":
		return publicURL
	case addr != "":
		return "http://" + reachable(addr)
	case sv.URL() != "":
		return sv.URL()
	}
	return "http://" + cli.DefaultAddr
}
