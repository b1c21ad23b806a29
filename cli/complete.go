package cli

import (
	"context"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"tend/web/wire"
)

// Shell completion (tend completion bash|zsh|fish|powershell) asks the
// server or the file for what exists: open tasks' refs with their titles,
// projects, tags, statuses, as the command would see them.

// completeLimit is how many open tasks completion offers refs from.
const completeLimit = "100"

// completeRefs completes a command's first argument with the refs of open
// tasks (the most important first), and the words of extra ("next").
func completeRefs(w *work, extra ...string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, e := range extra {
			if strings.HasPrefix(e, toComplete) {
				out = append(out, e)
			}
		}
		prefix := strings.TrimPrefix(toComplete, "#")
		err := w.complete(cmd, func(ctx context.Context, s *session) error {
			page, err := s.c.Tasks(ctx, url.Values{"limit": {completeLimit}})
			for _, t := range page.Tasks {
				if ref := wire.Itoa64(t.Ref); strings.HasPrefix(ref, prefix) {
					out = append(out, cobra.CompletionWithDesc(ref, t.Title))
				}
			}
			return err
		})
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completionSources are what completes a flag of the same name (and a
// project's KEY): the candidates with their descriptions.
var completionSources = map[string]func(ctx context.Context, s *session) ([]string, error){
	"project": func(ctx context.Context, s *session) ([]string, error) {
		ps, err := s.c.Projects(ctx)
		keys := make([]string, len(ps))
		for i, p := range ps {
			keys[i] = cobra.CompletionWithDesc(p.Key, p.Title)
		}
		return keys, err
	},
	"tag": func(ctx context.Context, s *session) ([]string, error) { return s.c.Tags(ctx) },
	"status": func(ctx context.Context, s *session) ([]string, error) {
		sts, err := s.c.Statuses(ctx, "task")
		keys := make([]string, len(sts))
		for i, st := range sts {
			keys[i] = cobra.CompletionWithDesc(st.Key, st.Category)
		}
		return keys, err
	},
}

// completeFlags completes the flags a command has of --project, --tag
// and --status.
func completeFlags(cmd *cobra.Command, w *work) {
	for name, source := range completionSources {
		if cmd.Flags().Lookup(name) != nil {
			_ = cmd.RegisterFlagCompletionFunc(name, completeFrom(w, source))
		}
	}
}

// completeProjects completes a command's first argument with project keys.
func completeProjects(w *work) cobra.CompletionFunc {
	keys := completeFrom(w, completionSources["project"])
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return keys(cmd, args, toComplete)
	}
}

// completeFrom offers source's candidates that begin with what is typed.
func completeFrom(w *work, source func(ctx context.Context, s *session) ([]string, error)) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		err := w.complete(cmd, func(ctx context.Context, s *session) error {
			all, err := source(ctx, s)
			for _, c := range all {
				if strings.HasPrefix(c, toComplete) {
					out = append(out, c)
				}
			}
			return err
		})
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// complete is run for completion: never a database created, never a word
// printed but the candidates.
func (w *work) complete(cmd *cobra.Command, fn func(ctx context.Context, s *session) error) error {
	if cmd.Context() == nil {
		cmd.SetContext(context.Background())
	}
	w.noCreate = true
	return w.run(cmd, fn)
}
