package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"tend/web/wire"
)

func newDocCmd(env *Env, dbPath *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "doc",
		Short: "Write and read documents: notes, specs, decisions, findings",
	}
	cmd.AddCommand(newDocNewCmd(env, dbPath), newDocShowCmd(env, dbPath))
	return cmd
}

func newDocNewCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.links": "--link"}
	var in wire.DocumentCreate
	var links []string
	cmd := &cobra.Command{
		Use:   "new",
		Short: "Write a document; the body comes from stdin or $EDITOR",
		Long: `Write a document of --type (note, spec, design, decision, finding,
dead_end) with --title. The body (Markdown) is read from stdin when
something is piped in, else written in $EDITOR. --link [TYPE:]REF files it
already linked to a task or document (relates_to unless TYPE says), in
the same write: a bad link refuses the whole document. An omitted
--status puts it in force.`,
		Example: `  echo "Retry twice, then page." | tend doc new --type decision --title "Retries" --project web
  echo "The flaky test waits on a real clock." | tend doc new --type finding --title "Flaky test" --link 2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if strings.TrimSpace(in.Title) == "" {
				return UsageError{errors.New(`give the document a --title`)}
			}
			for _, l := range links {
				typ, target, ok := strings.Cut(l, ":")
				if !ok {
					typ, target = "relates_to", l
				}
				in.Links = append(in.Links, wire.LinkRequest{LinkType: typ, Target: wire.FlexRef(strings.TrimPrefix(target, "#"))})
			}
			body, piped, err := w.piped(cmd)
			if err != nil {
				return err
			}
			if !piped {
				if body, err = w.editText(cmd, "tend-doc-*.md", "# "+in.Title+"\n\n"); err != nil {
					return err
				}
				body = strings.TrimPrefix(strings.TrimSpace(body), "# "+in.Title)
			}
			if body = strings.TrimSpace(body); body != "" {
				in.Body = &body
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				d, err := s.c.AddDocument(ctx, in)
				if err != nil {
					return err
				}
				return s.p.Filed(d)
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&in.Type, "type", "", "note, spec, design, decision, finding or dead_end")
	fl.StringVar(&in.Title, "title", "", "the title")
	fl.StringVar(&in.Project, "project", "", "the project's key (default: the inbox)")
	fl.StringVar(&in.Status, "status", "", "a document status key (default: in force)")
	fl.StringSliceVar(&in.Tags, "tag", nil, "a tag (repeat or separate with commas)")
	fl.StringArrayVar(&links, "link", nil, "link it to [TYPE:]REF, relates_to by default (repeat for more)")
	completeFlags(cmd, w)
	return cmd
}

func newDocShowCmd(env *Env, dbPath *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "show REF",
		Short:   "A document with its body",
		Example: `  tend doc show 5`,
	}
	return newWork(env, dbPath).refCmd(cmd, func(ctx context.Context, s *session, ref string) error {
		d, err := s.c.Document(ctx, ref)
		if err != nil {
			return err
		}
		return s.p.Document("", d)
	})
}

func newOpenCmd(env *Env, dbPath *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "open REF",
		Short: "Print a task's or document's web address, and open it in a browser",
		Long: `Print the web app's address of a task or document and, at a terminal where
a browser can be started ($BROWSER, else xdg-open or open), open it. On
the database file the address is where tend serve last said it listens.`,
		Example: `  tend open 2`,
	}
	return newWork(env, dbPath).refCmd(cmd, func(ctx context.Context, s *session, ref string) error {
		it, err := s.c.Show(ctx, ref)
		if err != nil {
			return err
		}
		base := s.c.WebURL()
		if base == "" {
			base = "http://" + DefaultAddr
		}
		var n int64
		switch {
		case it.Document != nil:
			n = it.Document.Ref
		case it.Task != nil:
			n = it.Task.Ref
		}
		u := fmt.Sprintf("%s/%ss/%d", strings.TrimRight(base, "/"), it.Kind, n)
		fmt.Fprintln(cmd.OutOrStdout(), u)
		if env.browse != nil && env.terminal(cmd.OutOrStdout()) {
			_ = env.browse(u)
		}
		return nil
	})
}
