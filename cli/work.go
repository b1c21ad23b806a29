package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tend/app"
)

// The terminal commands (tend add, ls, done, claim, …) read flags, make
// one call of a Client and print its answer with a Printer. This file
// chooses the client: a server (tend login, or TEND_URL and TEND_TOKEN) or
// the database file.

// Env is what the terminal commands take from the process they run in.
// Tests give their own: a fixed clock and zone, their own environment,
// config directory and HTTP client, and never a browser.
type Env struct {
	getenv    func(string) string
	now       func() time.Time
	zone      *time.Location
	configDir func() (string, error)
	http      *http.Client
	// terminal reports whether w is a terminal: colour, the editor and the
	// browser are for people only.
	terminal func(w any) bool
	// browse opens a URL in a browser; nil where there is none.
	browse func(url string) error
	// wait lets d pass, or ctx end: between the polls of a browser sign-in.
	wait func(ctx context.Context, d time.Duration) error
	// version is the release, which a server is told in each request.
	version string
	// open opens the database file (creating it when it does not exist)
	// and the Service on it, on the clock now; the file's code is main's,
	// so that this package never imports the store.
	open OpenFunc
}

// OpenFunc opens the database file at path (creating it when it does not
// exist) with now as the store's clock; log is where an internal error's
// cause is written: the person running the command is the operator who
// would read it in a server's log.
type OpenFunc func(ctx context.Context, path string, now func() time.Time, log io.Writer) (File, error)

// FileService is the part of app.Service the commands call on the file
// itself; everything else they do goes through the JSON API.
type FileService interface {
	Bootstrap(ctx context.Context, opts app.BootstrapOptions) (*app.FirstStart, error)
	LocalActor(ctx context.Context, username string) (app.LocalSession, error)
}

var _ FileService = (*app.Service)(nil)

// File is the database file opened for the commands.
type File struct {
	// Service is the Service on the file, for what the commands do there
	// before any request: creating the file's first account and finding
	// the one they act as.
	Service FileService
	// API serves the file's JSON API in process, through the router tend
	// serve runs, as the account a acts as.
	API func(a app.Actor) http.RoundTripper
	// Close closes the file.
	Close func()
}

// ProcessEnv is the environment of the process itself: its variables,
// clock, zone and terminal, the release version, and open for the file.
func ProcessEnv(version string, open OpenFunc) *Env {
	return &Env{getenv: os.Getenv, now: time.Now, zone: time.Local, configDir: os.UserConfigDir, http: http.DefaultClient,
		terminal: isTerminal, browse: openBrowser, wait: sleep, version: version, open: open}
}

// sleep lets d pass, or ctx end.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// isTerminal reports whether f is a character device (a terminal), not a
// file or a pipe.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	st, err := file.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// work is what every terminal command shares: how it prints, whom it acts
// as and in which workspace, and how it names its fields in a refusal.
type work struct {
	env       *Env
	dbPath    *string
	format    string
	json      bool
	user      string
	workspace string
	// names says how this command spells a field a refusal names, where
	// that is not the flag of the same name ("body.text" is the line).
	names map[string]string
	// noCreate keeps the default database from being created (completion).
	noCreate bool
}

func newWork(env *Env, dbPath *string) *work { return &work{env: env, dbPath: dbPath} }

// flags adds the flags every terminal command takes.
func (w *work) flags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&w.json, "json", false, "print the API's JSON")
	fl.StringVar(&w.format, "format", "", "compact: one line per item, as agents read it; json: the API's JSON")
	fl.StringVar(&w.user, "user", w.env.getenv("TEND_USER"), "on the database file: act as this account (default: the oldest active administrator; env TEND_USER)")
	fl.StringVar(&w.workspace, "workspace", w.env.getenv("TEND_WORKSPACE"), "the workspace, when you reach several (env TEND_WORKSPACE)")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"compact", "json"}, cobra.ShellCompDirectiveNoFileComp))
}

// session is one command's client and printer, and what closes them.
type session struct {
	c     Client
	p     Printer
	close func()
	// file is true on the database file, where no server wakes a wait on
	// the change feed for writes made by other processes.
	file bool
}

// run opens the client, calls fn and closes it; a refusal comes back
// naming the command's flags.
func (w *work) run(cmd *cobra.Command, fn func(ctx context.Context, s *session) error) error {
	s, err := w.open(cmd)
	if err != nil {
		return w.failure(err)
	}
	defer s.close()
	return w.failure(fn(cmd.Context(), s))
}

// refCmd makes cmd a command on one task or document: REF its one
// argument (completed from the workspace's refs), the flags every command
// takes, and do run with the ref on an open session.
func (w *work) refCmd(cmd *cobra.Command, do func(ctx context.Context, s *session, ref string) error) *cobra.Command {
	cmd.Args = cobra.ExactArgs(1)
	cmd.ValidArgsFunction = completeRefs(w)
	return w.call(cmd, func(ctx context.Context, s *session, args []string) error { return do(ctx, s, args[0]) })
}

// call makes cmd a command that is one session's work: act runs with the
// command's arguments on an open session, and cmd takes the flags every
// command takes.
func (w *work) call(cmd *cobra.Command, act func(ctx context.Context, s *session, args []string) error) *cobra.Command {
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		return w.run(cmd, func(ctx context.Context, s *session) error { return act(ctx, s, args) })
	}
	w.flags(cmd)
	return cmd
}

// listCmd makes cmd a command that reads one whole list and prints it.
func listCmd[T any](w *work, cmd *cobra.Command, read func(Client, context.Context) ([]T, error), print func(Printer, []T) error) *cobra.Command {
	return w.call(cmd, func(ctx context.Context, s *session, _ []string) error {
		items, err := read(s.c, ctx)
		if err != nil {
			return err
		}
		return print(s.p, items)
	})
}

// output is the form to print in, from --json and --format.
func (w *work) output(cmd *cobra.Command) (string, error) {
	switch {
	case w.json && cmd.Flags().Changed("format") && w.format != FormatJSON:
		return "", UsageError{fmt.Errorf("--json and --format %s ask for two forms: give one", w.format)}
	case w.json:
		return FormatJSON, nil
	}
	switch w.format {
	case "", "table", "human":
		return FormatHuman, nil
	case FormatJSON, FormatCompact:
		return w.format, nil
	}
	return "", UsageError{fmt.Errorf("--format is compact or json, not %q", w.format)}
}

// open chooses the client: the database file when --db is given, else the
// server TEND_URL names (with TEND_TOKEN), else the one tend login stored,
// else the database file (TEND_DB, or the default one, created there on
// first use).
func (w *work) open(cmd *cobra.Command) (*session, error) {
	format, err := w.output(cmd)
	if err != nil {
		return nil, err
	}
	s := &session{close: func() {}}
	local := cmd.Flags().Changed("db")
	var srv login
	if !local {
		if srv, err = w.env.server(); err != nil {
			return nil, err
		}
	}
	switch {
	case !local && srv.URL != "":
		if cmd.Flags().Changed("user") {
			return nil, UsageError{errors.New("--user is for the database file: on a server the credential says who you are")}
		}
		s.c = NewRemote(srv.URL, srv.Token, w.workspace, w.env.version, w.env.http)
	default:
		if s.c, s.close, err = w.openLocal(cmd); err != nil {
			return nil, err
		}
		s.file = true
	}
	out := cmd.OutOrStdout()
	s.p = Printer{W: out, Format: format, Now: w.env.now(), Zone: w.env.zone, C: s.c,
		Colour: format == FormatHuman && w.env.terminal(out) && w.env.getenv("NO_COLOR") == "" && w.env.getenv("TERM") != "dumb"}
	return s, nil
}

// openLocal opens the database file and the account the commands act as:
// the client is the one a server's is, over the file's JSON API served in
// process. Beside a running server that is safe: both hold the file's
// shared lock, SQLite's own locks order their writes, and every cache the
// server keeps is keyed on a revision any write moves, whichever process
// writes.
func (w *work) openLocal(cmd *cobra.Command) (Client, func(), error) {
	ctx, path := cmd.Context(), *w.dbPath
	create := FirstUse(cmd, path, w.env.getenv) && !w.noCreate
	if !create {
		if err := RequireDatabase(path); err != nil {
			return nil, nil, err
		}
	}
	f, err := w.env.open(ctx, path, w.env.now, cmd.ErrOrStderr())
	if err != nil {
		return nil, nil, err
	}
	if create {
		if err := BootstrapFirst(ctx, f.Service, path, cmd.ErrOrStderr()); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	sess, err := f.Service.LocalActor(ctx, w.user)
	if err != nil {
		f.Close()
		p := ProblemOf(err)
		if p.Code == app.CodeNotFound {
			p.Fix = "--user (or TEND_USER) names an account of this file; tend token issue --user NAME makes one"
		}
		return nil, nil, p
	}
	return NewFile(path, sess.Serving.URL(), w.workspace, w.env.version, f.API(sess.Actor)), f.Close, nil
}

// FirstUse reports whether a command creates the database file at path:
// it does not exist, and it is the default file, not one that --db or
// TEND_DB named (a mistyped name is refused, not created).
func FirstUse(cmd *cobra.Command, path string, getenv func(string) string) bool {
	if cmd.Flags().Changed("db") || getenv("TEND_DB") != "" {
		return false
	}
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// BootstrapFirst makes the instance and its administrator on the database
// file a command just created at path (FirstUse), and says so on w.
func BootstrapFirst(ctx context.Context, svc FileService, path string, w io.Writer) error {
	if _, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: LocalTimezone(), NoToken: true}); err != nil {
		return err
	}
	fmt.Fprintf(w, "tend: created %s, acting as its administrator (tend serve serves it; tend signin signs a browser in)\n", path)
	return nil
}

// failure is err as the command line reports it: a refusal names the
// command's flags where it names a field.
func (w *work) failure(err error) error {
	var p *Problem
	if err == nil || !errors.As(err, &p) {
		return err
	}
	return refusal{p: p, names: w.names}
}

// refusal is a Problem as a command reports it.
type refusal struct {
	p     *Problem
	names map[string]string
}

func (r refusal) Error() string { return r.p.Describe(r.name) }
func (r refusal) Unwrap() error { return r.p }

// name spells a field's location as the command line does: what the
// command says it is, else the flag of the same name (query.due_before is
// --due-before, body.project --project), else what the command says of
// the place it is in (body.links.0.target is in --link).
func (r refusal) name(loc []string) string {
	key := strings.Join(loc, ".")
	if n, ok := r.names[key]; ok {
		return n
	}
	if len(loc) == 2 && (loc[0] == "query" || loc[0] == "body") {
		return "--" + strings.ReplaceAll(loc[1], "_", "-")
	}
	for i := len(loc) - 1; i > 0; i-- {
		if n, ok := r.names[strings.Join(loc[:i], ".")]; ok {
			return n
		}
	}
	return key
}

// exclusive refuses flags given together that ask for opposite things.
func exclusive(cmd *cobra.Command, names ...string) error {
	var set []string
	for _, n := range names {
		if cmd.Flags().Changed(n) {
			set = append(set, "--"+n)
		}
	}
	if len(set) > 1 {
		return UsageError{fmt.Errorf("%s ask for opposite things: give one", strings.Join(set, " and "))}
	}
	return nil
}

// piped is what was piped in, and whether anything could be: from a
// terminal nothing is read.
func (w *work) piped(cmd *cobra.Command) (string, bool, error) {
	in := cmd.InOrStdin()
	if w.env.terminal(in) {
		return "", false, nil
	}
	b, err := io.ReadAll(in)
	return string(b), true, err
}
