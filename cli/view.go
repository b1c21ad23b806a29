package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"tend/web/wire"
)

// The view commands: saved listings, each one call of /v1/views, as the
// web app's Save view and its top bar make them.

func newViewCmd(env *Env, dbPath *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "view",
		Short: "Save, list and remove views: tend ls's filters under a name",
		Long: `A view is a listing's filters and order saved under a name: tend ls --view
NAME lists through it, and the web app's top bar shows it with its count.
A --shared view is seen by everyone in the workspace, each seeing only the
tasks they may see; only its owner changes or removes it.`,
	}
	cmd.AddCommand(newViewSaveCmd(env, dbPath), newViewLsCmd(env, dbPath), newViewRmCmd(env, dbPath))
	return cmd
}

func newViewSaveCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.name": "NAME", "body.query.q": "-q", "body.query.include_completed": "--all", "body.query": "the filters"}
	var f listFlags
	var shared bool
	cmd := &cobra.Command{
		Use:   "save NAME [ls flags]",
		Short: "Save tend ls's filters and order under a name",
		Long: `Save the filters and order that tend ls takes as flags under NAME, for
tend ls --view NAME and the web app's top bar. --shared shows it to the
whole workspace.`,
		Example: `  tend view save "Due by friday" --due-before friday --shared
  tend view save mine --mine --order due_at`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := f.query(cmd, "")
			if err != nil {
				return err
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				v, err := s.c.SaveView(ctx, wire.ViewCreate{Name: args[0], Query: q.Encode(), Shared: shared})
				if err != nil {
					return err
				}
				return s.p.View("saved", v)
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	f.filterFlags(fl)
	fl.BoolVar(&shared, "shared", false, "seen by everyone in the workspace")
	completeFlags(cmd, w)
	return cmd
}

func newViewLsCmd(env *Env, dbPath *string) *cobra.Command {
	return listCmd(newWork(env, dbPath), &cobra.Command{
		Use:     "ls",
		Short:   "Your views and those shared in the workspace, with their counts",
		Example: `  tend view ls`,
		Args:    cobra.NoArgs,
	}, Client.Views, Printer.Views)
}

func newViewRmCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	return w.call(&cobra.Command{
		Use:               "rm NAME",
		Short:             "Remove one of your views",
		Example:           `  tend view rm "Web work"`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
	}, func(ctx context.Context, s *session, args []string) error {
		v, err := s.c.DeleteView(ctx, args[0])
		if err != nil {
			return err
		}
		return s.p.View("removed", v)
	})
}

// View writes a view a command saved or removed.
func (p Printer) View(verb string, v wire.View) error {
	if p.Format == FormatJSON {
		return p.JSON(v)
	}
	p.line("%s %s", verb, strings.Join(viewLine(v), "  "))
	return nil
}

// Views writes the views as GET /v1/views lists them.
func (p Printer) Views(vs []wire.View) error {
	return tableOf(p, vs, "views", viewLine, []string{"NAME", "TASKS", "FILTERS", ""}, func(v wire.View) []cell {
		shared := ""
		if v.Shared {
			shared = "shared by " + v.Owner
		}
		return []cell{{v.Name, ""}, {viewCount(v), ""}, {v.Query, dim}, {shared, dim}}
	})
}

// viewLine is a view in the compact form: name, count, filters, and who
// shares it.
func viewLine(v wire.View) []string {
	out := []string{strconv.Quote(v.Name), viewCount(v), v.Query}
	if v.Shared {
		out = append(out, fmt.Sprintf("shared by %s", v.Owner))
	}
	return out
}

// viewCount is a view's count, "-" where the answer has none, "100+"
// past the server's cap.
func viewCount(v wire.View) string {
	switch {
	case v.Count == nil:
		return "-"
	case v.CountCapped:
		return strconv.Itoa(*v.Count) + "+"
	}
	return strconv.Itoa(*v.Count)
}
