package cli

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tend/app"
	"tend/web/wire"
)

func newAddCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.text": "the line", "body.estimate_minutes": "--estimate", "body.reminders": "--remind"}
	var f struct {
		title, description, project, parent, typ, assignee, repeat, estimate string
		tags, remind                                                         []string
		importance, urgency                                                  int
	}
	cmd := &cobra.Command{
		Use:   "add LINE",
		Short: "Add a task from a captured line",
		Long: `Add a task from a line written the way you think: title words, a date
("tomorrow 9am", "by friday", "in 3 days", "tmrw in the morning"), a repeat
("every monday", "on the 1st of every month"), #tag, +project,
!importance/urgency (!4, !4/2, or Todoist's p1-p4) and ~estimate (~30m).
Anything not understood stays in the title. It prints the new ref and what
was read, so a wrong reading shows at once (tend edit fixes it). Flags set
fields outright and win over what the line says.`,
		Example: `  tend add "Call the bank tomorrow 9am #finance !4"
  tend add "Write the release notes by friday ~1h" --project web --tag docs
  tend add "Dentist friday 2pm" --remind 1h --remind 1d`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			in := wire.TaskCreate{Text: strings.TrimSpace(strings.Join(args, " ")), Title: f.title, Description: f.description,
				Project: f.project, Parent: wire.FlexRef(strings.TrimPrefix(f.parent, "#")), Type: f.typ, Assignee: f.assignee,
				Repeat: f.repeat}
			if in.Text == "" && in.Title == "" {
				return UsageError{fmt.Errorf(`give the task as a line: tend add "Call the bank tomorrow 9am"`)}
			}
			if cmd.Flags().Changed("tag") {
				in.Tags = f.tags
			}
			if cmd.Flags().Changed("importance") {
				in.Importance = &f.importance
			}
			if cmd.Flags().Changed("urgency") {
				in.Urgency = &f.urgency
			}
			if len(f.remind) > 0 {
				rs, err := app.ParseRemindersList(strings.Join(f.remind, ","))
				if err != nil {
					return UsageError{fmt.Errorf("--remind: %v", err)}
				}
				for _, r := range rs {
					in.Reminders = append(in.Reminders, wire.Reminder(r))
				}
			}
			if f.estimate != "" {
				m, err := estimateMinutes(f.estimate)
				if err != nil {
					return err
				}
				in.EstimateMinutes = &m
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				t, err := s.c.AddTask(ctx, in)
				if err != nil {
					return projectFix(err)
				}
				return s.p.Task(ctx, "added", t)
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.title, "title", "", "the title, taken as written (the line's markers are still read)")
	fl.StringVar(&f.description, "description", "", "the description (Markdown)")
	fl.StringVar(&f.project, "project", "", "the project's key")
	fl.StringVar(&f.parent, "parent", "", "file it as a subtask of this task (a ref)")
	fl.StringVar(&f.typ, "type", "", "the item type (task, bug, feature, chore, question, event)")
	fl.StringVar(&f.assignee, "assignee", "", "assign it to this username")
	fl.StringVar(&f.repeat, "repeat", "", `a repeat phrase ("every monday")`)
	fl.StringVar(&f.estimate, "estimate", "", "the estimate: 90, 90m, 1h30m")
	fl.StringSliceVar(&f.tags, "tag", nil, "a tag (repeat or separate with commas)")
	fl.StringArrayVar(&f.remind, "remind", nil, "a reminder before the due (30m, 1h, 1d) or at an instant (RFC 3339), once each; none takes your default reminders")
	fl.IntVar(&f.importance, "importance", 0, "importance, 1 to 5")
	fl.IntVar(&f.urgency, "urgency", 0, "urgency, 1 to 5")
	completeFlags(cmd, w)
	return cmd
}

// estimateMinutes reads an estimate: minutes (90), or a duration (90m, 1h30m).
func estimateMinutes(s string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil && n >= 0 {
		return n, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d%time.Minute != 0 {
		return 0, UsageError{fmt.Errorf("--estimate is minutes or a duration such as 90m or 1h30m, not %q", s)}
	}
	return int(d / time.Minute), nil
}

// defaultListOrder is tend ls's order when --order is not given: the
// order tend claim next picks in.
const defaultListOrder = "-priority_score,due_at,ref"

// listFlags are tend ls's filters: each is the task listing's query
// parameter of the same name (wire.TaskListQuery reads them).
type listFlags struct {
	ready, toActOn, mine, all                                                   bool
	status, tag, project, typ, assignee, claimedBy, dueBefore, dueAfter, parent string
	q, order, cursor, view                                                      string
	limit                                                                       int
	filters                                                                     []string
}

// query is the listing's parameters: the key→value source the server (or,
// on the file, this process) reads with wire.TaskListQuery.
func (f listFlags) query(cmd *cobra.Command, format string) (url.Values, error) {
	q := url.Values{}
	if err := exclusive(cmd, "mine", "assignee"); err != nil {
		return nil, err
	}
	for key, v := range map[string]string{"status": f.status, "tag": f.tag, "project": f.project, "type": f.typ, "assignee": f.assignee,
		"claimed_by": f.claimedBy, "due_before": f.dueBefore, "due_after": f.dueAfter, "parent": f.parent, "q": f.q,
		"order": f.order, "cursor": f.cursor, "view": f.view} {
		setIf(q, key, v)
	}
	for key, on := range map[string]bool{"ready": f.ready, "to_act_on": f.toActOn, "include_completed": f.all} {
		if on {
			q.Set(key, "true")
		}
	}
	if f.mine {
		q.Set("assignee", "me")
	}
	if f.order == "" && f.q == "" && f.view == "" {
		// Most important first, as the help says; a search keeps its
		// best match first.
		q.Set("order", defaultListOrder)
	}
	if cmd.Flags().Changed("limit") {
		q.Set("limit", strconv.Itoa(f.limit))
	}
	for _, kv := range f.filters {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !app.IsTaskFieldFilter(k) {
			return nil, UsageError{fmt.Errorf("--filter is FIELD=VALUE with a field filter such as due_at.lt=friday or estimate_minutes.lte=30, not %q", kv)}
		}
		if q.Has(k) {
			return nil, UsageError{fmt.Errorf("--filter %s is given twice", k)}
		}
		q.Set(k, v)
	}
	if format == "compact" {
		q.Set("format", "compact")
	}
	return q, nil
}

// filterFlags adds the listing's filters and order as flags: tend ls's,
// and what tend view save keeps.
func (f *listFlags) filterFlags(fl *pflag.FlagSet) {
	fl.BoolVar(&f.ready, "ready", false, "only what can be worked on now: nothing unfinished blocks it, not deferred, not held")
	fl.BoolVar(&f.toActOn, "to-act-on", false, "only what is assigned to you or to nobody")
	fl.BoolVar(&f.mine, "mine", false, "only what is assigned to you (--assignee me)")
	fl.BoolVar(&f.all, "all", false, "finished and cancelled tasks too")
	fl.StringVar(&f.status, "status", "", "a status key")
	fl.StringVar(&f.tag, "tag", "", "a tag")
	fl.StringVar(&f.project, "project", "", "a project's key (and everything under it)")
	fl.StringVar(&f.typ, "type", "", "an item type")
	fl.StringVar(&f.assignee, "assignee", "", "a username (me: you)")
	fl.StringVar(&f.claimedBy, "claimed-by", "", "who holds the claim (me: you)")
	fl.StringVar(&f.dueBefore, "due-before", "", `due before this day ("friday", "2026-12-01")`)
	fl.StringVar(&f.dueAfter, "due-after", "", "due after this day")
	fl.StringVar(&f.parent, "parent", "", "subtasks of this task (a ref)")
	fl.StringVarP(&f.q, "query", "q", "", `words to search for ("login type:bug")`)
	fl.StringVar(&f.order, "order", "", "the order: -priority_score,due_at,ref and the like")
	fl.StringArrayVar(&f.filters, "filter", nil, "a field filter FIELD=VALUE (repeat for more)")
}

func setIf(q url.Values, key, v string) {
	if v != "" {
		q.Set(key, v)
	}
}

func newLsCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"query.q": "-q", "query.include_completed": "--all", "query": "the filters"}
	var f listFlags
	cmd := &cobra.Command{
		Use:   "ls",
		Short: "List tasks, with the listing's filters as flags",
		Long: `List tasks, open ones by default, most important first. Each flag is the
task listing's parameter of the same name (docs/api.md, "The task
listing"); --filter takes any field filter (due_at.lt=friday,
estimate_minutes.lte=30, tag.in=a,b). Dates may be written in words.`,
		Example: `  tend ls
  tend ls --ready --to-act-on
  tend ls --mine --project web --tag docs
  tend ls --status todo --due-before "end of month" -q bank
  tend ls --filter estimate_minutes.lte=30 --format compact
  tend ls --view "Web work"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			format, err := w.output(cmd)
			if err != nil {
				return err
			}
			q, err := f.query(cmd, format)
			if err != nil {
				return err
			}
			return w.run(cmd, func(ctx context.Context, s *session) error {
				page, err := s.c.Tasks(ctx, q)
				if err != nil {
					return err
				}
				return s.p.Tasks(ctx, page)
			})
		},
	}
	w.flags(cmd)
	fl := cmd.Flags()
	f.filterFlags(fl)
	fl.StringVar(&f.view, "view", "", "list through a saved view (its name or id; tend view ls lists them)")
	fl.IntVar(&f.limit, "limit", 0, "how many (default: the page size)")
	fl.StringVar(&f.cursor, "cursor", "", "the next page, as the last one said")
	completeFlags(cmd, w)
	return cmd
}

func newTodayCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	var date, zone string
	cmd := w.call(&cobra.Command{
		Use:   "today",
		Short: "Your day: overdue, today, upcoming, in progress, waiting",
		Long: `Your own open work on a day (today unless --date says), each task in one
place: overdue, today, occasions, in progress, upcoming (the next 7 days),
blocked by others, waiting on others, unscheduled; then the counts of what
is not listed. docs/agenda.md has the rules.`,
		Example: `  tend today
  tend today --date 2026-12-01 --format compact`,
		Args: cobra.NoArgs,
	}, func(ctx context.Context, s *session, _ []string) error {
		q := url.Values{}
		setIf(q, "date", date)
		setIf(q, "timezone", zone)
		ag, err := s.c.Agenda(ctx, q)
		if err != nil {
			return err
		}
		return s.p.Agenda(ctx, ag)
	})
	cmd.Flags().StringVar(&date, "date", "", "the day, YYYY-MM-DD (default: today)")
	cmd.Flags().StringVar(&zone, "timezone", "", "the zone the day is counted in (default: yours)")
	return cmd
}

func newShowCmd(env *Env, dbPath *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show REF",
		Short: "A task (or document) with its links, governing documents, subtasks, comments",
		Long: `Show a task with what you need to start on it: its description, its links,
the governing documents in force (decisions, specs: read them), subtasks,
the last comments and verifications. A document's ref shows the document.`,
		Example: `  tend show 2
  tend show 2 --format compact`,
	}
	return newWork(env, dbPath).refCmd(cmd, func(ctx context.Context, s *session, ref string) error {
		it, err := s.c.Show(ctx, ref)
		if err != nil {
			return err
		}
		return s.p.Show(ctx, it)
	})
}

func newSearchCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"query.q": "WORDS"}
	var project string
	var limit int
	cmd := &cobra.Command{
		Use:   "search WORDS",
		Short: "Search tasks and documents, open and finished, best match first",
		Long: `Search tasks and documents alike: words, "phrases", and terms such as
type:bug, status:todo, #tag and +project. The best matches of each kind
come first.`,
		Example: `  tend search bank
  tend search "release notes" type:task --limit 5`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return w.run(cmd, func(ctx context.Context, s *session) error {
				q := url.Values{"q": {strings.Join(args, " ")}}
				setIf(q, "project", project)
				if cmd.Flags().Changed("limit") {
					q.Set("limit", strconv.Itoa(limit))
				}
				res, err := s.c.Search(ctx, q)
				if err != nil {
					return err
				}
				return s.p.Search(ctx, res)
			})
		},
	}
	w.flags(cmd)
	cmd.Flags().StringVar(&project, "project", "", "only in this project (and under it)")
	cmd.Flags().IntVar(&limit, "limit", 0, "how many of each kind (default: the page size)")
	completeFlags(cmd, w)
	return cmd
}
