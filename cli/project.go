package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/web/wire"
)

// The project commands: each is one call of the projects' routes, as the
// web app's project page makes them.

func newProjectCmd(env *Env, dbPath *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "project",
		Short: "Start, list, show, change and archive projects",
		Long: `Projects hold tasks and documents and nest in a tree. A project's key is
permanent: +key in a captured line, --project and the web app's addresses
name it. A private project is seen only by its owner and the people it is
shared with (the web app's project page shares it). Archiving a project
gives it the first finished project status, reopening the first active one.`,
	}
	cmd.AddCommand(newProjectAddCmd(env, dbPath), newProjectLsCmd(env, dbPath), newProjectShowCmd(env, dbPath),
		newProjectEditCmd(env, dbPath), newProjectStatusCmd(env, dbPath, "archive", app.CategoryDone, "archived"),
		newProjectStatusCmd(env, dbPath, "reopen", app.CategoryInProgress, "reopened"))
	return cmd
}

func newProjectAddCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.key": "KEY"}
	var in wire.ProjectCreate
	var private bool
	cmd := &cobra.Command{
		Use:   "add KEY",
		Short: "Start a project",
		Long: `Start a project with the permanent KEY (lower case letters, digits and
dashes), titled --title (KEY when not given), inside the project --parent
names, and --private: seen only by you and the people you share it with.`,
		Example: `  tend project add garden --title "Vegetable garden"
  tend project add beds --parent garden --private`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Key = args[0]
			if strings.TrimSpace(in.Title) == "" {
				in.Title = in.Key
			}
			if private {
				in.Visibility = "private"
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				p, err := s.c.AddProject(ctx, in)
				if err != nil {
					return projectFix(err)
				}
				return s.p.Project("started", p)
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&in.Title, "title", "", "the title (default: the key)")
	fl.StringVar(&in.Description, "description", "", "what the project is for (Markdown)")
	fl.StringVar(&in.Parent, "parent", "", "start it inside this project (its key)")
	fl.BoolVar(&private, "private", false, "seen only by you and the people you share it with")
	completeFlags(cmd, w)
	return cmd
}

func newProjectLsCmd(env *Env, dbPath *string) *cobra.Command {
	return listCmd(newWork(env, dbPath), &cobra.Command{
		Use:     "ls",
		Short:   "The projects you see, as a tree",
		Long:    `List the projects you see, each under its parent, archived ones too, with their status.`,
		Example: `  tend project ls`,
		Args:    cobra.NoArgs,
	}, Client.Projects, Printer.Projects)
}

func newProjectShowCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	return w.call(&cobra.Command{
		Use:               "show KEY",
		Short:             "A project and its open tasks",
		Example:           `  tend project show garden`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeProjects(w),
	}, func(ctx context.Context, s *session, args []string) error {
		p, err := s.c.Project(ctx, args[0])
		if err != nil {
			return projectFix(err)
		}
		if s.p.Format == FormatJSON {
			return s.p.JSON(p)
		}
		if err := s.p.Project("", p); err != nil {
			return err
		}
		page, err := s.c.Tasks(ctx, url.Values{"project": {p.Key}, "limit": {"20"}, "format": {s.p.Format}})
		if err != nil {
			return err
		}
		s.p.line("")
		return s.p.Tasks(ctx, page)
	})
}

func newProjectEditCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	var title, description, parent string
	var private, public bool
	cmd := &cobra.Command{
		Use:   "edit KEY",
		Short: "Change a project's title, description, parent or who sees it",
		Long: `Change what the flags give and nothing else: --title, --description
(--description "" clears it), --parent (another project's key; "" moves
it to the top), --private or --public. The key itself is permanent.`,
		Example:           `  tend project edit garden --title "Garden" --description "Beds, paths and the shed"`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeProjects(w),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := exclusive(cmd, "private", "public"); err != nil {
				return err
			}
			var in wire.ProjectUpdate
			fl := cmd.Flags()
			if !fl.Changed("title") && !fl.Changed("description") && !fl.Changed("parent") && !private && !public {
				return UsageError{fmt.Errorf("nothing to change: give --title, --description, --parent, --private or --public")}
			}
			if fl.Changed("title") {
				in.Title = wire.PatchOf(title)
			}
			if fl.Changed("description") {
				in.Description = wire.PatchOf(description)
				if description == "" {
					in.Description = wire.PatchNull[string]()
				}
			}
			if fl.Changed("parent") {
				in.Parent = wire.PatchOf(parent)
			}
			switch {
			case private:
				in.Visibility = wire.PatchOf("private")
			case public:
				in.Visibility = wire.PatchOf("public")
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				p, err := s.c.UpdateProject(ctx, args[0], in)
				if err != nil {
					return projectFix(err)
				}
				return s.p.Project("changed", p)
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&title, "title", "", "the new title")
	fl.StringVar(&description, "description", "", `the new description ("" clears it)`)
	fl.StringVar(&parent, "parent", "", `move it inside this project ("" to the top)`)
	fl.BoolVar(&private, "private", false, "seen only by its owner and the people it is shared with")
	fl.BoolVar(&public, "public", false, "seen by the whole workspace")
	completeFlags(cmd, w)
	return cmd
}

// newProjectStatusCmd is archive (the first project status of category
// done) or reopen (the first of category in_progress): the statuses the
// web app's one-click buttons set.
func newProjectStatusCmd(env *Env, dbPath *string, verb, category, done string) *cobra.Command {
	w := newWork(env, dbPath)
	short, example := "Archive a finished project", "  tend project archive beds"
	if verb == "reopen" {
		short, example = "Make an archived project active again", "  tend project reopen beds"
	}
	return w.call(&cobra.Command{
		Use:               verb + " KEY",
		Short:             short,
		Example:           example,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeProjects(w),
	}, func(ctx context.Context, s *session, args []string) error {
		statuses, err := s.c.Statuses(ctx, "project")
		if err != nil {
			return err
		}
		var key string
		for _, st := range statuses {
			if st.Category == category {
				key = st.Key
				break
			}
		}
		p, err := s.c.UpdateProject(ctx, args[0], wire.ProjectUpdate{Status: wire.PatchOf(key)})
		if err != nil {
			return projectFix(err)
		}
		return s.p.Project(done, p)
	})
}

// projectFix is err with the command that gets past it, where it refuses
// a project that is not there: tend project ls for a KEY, tend project add
// for a task filed in a project that does not exist (+key in its line).
func projectFix(err error) error {
	var p *Problem
	if !errors.As(err, &p) {
		return err
	}
	if p.Code == app.CodeNotFound {
		p.Fix = "tend project ls lists the projects you see"
	}
	for _, f := range p.Fields {
		if key, ok := strings.CutPrefix(f.Msg, "no such project: "); ok && strings.Join(f.Loc, ".") == "body.project" {
			p.Fix = "start it with: tend project add " + key
		}
	}
	return err
}

// Project writes a project a command started, changed or read.
func (p Printer) Project(verb string, pr wire.Project) error {
	switch p.Format {
	case FormatJSON:
		return p.JSON(pr)
	case FormatCompact:
		p.line("%s", wire.AlignRows([][]string{projectLine(pr)})[0])
		return nil
	}
	head := pr.Path + " " + pr.Title
	if verb != "" {
		head = verb + " " + head
	}
	p.line("%s", p.paint(bold, head))
	facts := []string{pr.StatusLabel}
	if pr.Visibility == "private" {
		facts = append(facts, "private")
	}
	p.line("  %s", strings.Join(facts, " · "))
	if verb == "" && pr.Description != nil && *pr.Description != "" {
		p.line("\n%s", strings.TrimRight(*pr.Description, "\n"))
	}
	return nil
}

// Projects writes the projects in the order the API lists them, each
// under its parent.
func (p Printer) Projects(ps []wire.Project) error {
	return tableOf(p, ps, "projects", projectLine, []string{"KEY", "STATUS", "TITLE", ""}, func(pr wire.Project) []cell {
		visibility := ""
		if pr.Visibility == "private" {
			visibility = "private"
		}
		return []cell{{strings.Repeat("  ", pr.Depth) + pr.Key, ""}, {pr.StatusLabel, statusStyle(pr.StatusCategory)}, {pr.Title, ""}, {visibility, dim}}
	})
}

// projectLine is a project in the compact form: its address, status and
// title.
func projectLine(pr wire.Project) []string {
	return []string{pr.Path, pr.Status, pr.Title}
}
