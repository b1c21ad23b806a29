// Command tend is a self-hosted work tracker for people and AI agents: one
// binary, one SQLite file, a JSON API under /v1.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	_ "time/tzdata" // timezones resolve the same on a machine without zoneinfo

	"tend/app"
	"tend/store"
)

// version is the release, set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCmd(os.Stdout, os.Stderr).ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(exitCode(err))
	}
}

// usageError marks a mistake in how the command was called (exit status 2).
type usageError struct{ error }

// newRootCmd builds the command tree; tests call it with buffers.
func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	return newRoot(stdout, stderr, processEnv())
}

// newRoot is newRootCmd with the terminal commands' environment (cliEnv).
func newRoot(stdout, stderr io.Writer, env *cliEnv) *cobra.Command {
	var dbPath string
	root := &cobra.Command{
		Use:   "tend",
		Short: "A self-hosted work tracker for people and AI agents",
		Long: `tend keeps tasks, documents and projects for people and AI agents in one
SQLite file and serves them as a JSON API, MCP and a web app. The commands
below work at the terminal, on the database file or, after tend login, on
a server (tend help local).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{withHelp(cmd, err)} })
	root.PersistentFlags().StringVar(&dbPath, "db", envOr("TEND_DB", defaultDBPath()), "SQLite database file (env TEND_DB)")
	root.AddGroup(&cobra.Group{ID: "work", Title: "Tasks and documents:"}, &cobra.Group{ID: "server", Title: "Serving and keeping the database:"})
	for _, c := range workCmds(env, &dbPath) {
		c.GroupID = "work"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{newServeCmd(&dbPath), newTokenCmd(&dbPath), newSignInCmd(&dbPath), newBackupCmd(&dbPath),
		newRestoreCmd(&dbPath), newExportCmd(&dbPath), newImportCmd(&dbPath), newMCPCmd(&dbPath), newHealthcheckCmd()} {
		c.GroupID = "server"
		root.AddCommand(c)
	}
	addHelpTopics(root)
	markArgErrors(root)
	return root
}

// markArgErrors makes a wrong number of arguments a usageError, as
// SetFlagErrorFunc does for flags: cobra returns both as plain errors.
func markArgErrors(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError{withHelp(cmd, err)}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		markArgErrors(sub)
	}
}

// withHelp is a mistake cobra found in the command line, saying where the
// command's usage is.
func withHelp(cmd *cobra.Command, err error) error {
	return fmt.Errorf("%w (%s --help shows the usage)", err, cmd.CommandPath())
}

// logFlags are --log-format and --log-level, on the commands that log.
type logFlags struct{ format, level string }

func addLogFlags(cmd *cobra.Command, f *logFlags) {
	cmd.Flags().StringVar(&f.format, "log-format", envOr("TEND_LOG_FORMAT", "text"), "text (logfmt) or json, one object a line (env TEND_LOG_FORMAT)")
	cmd.Flags().StringVar(&f.level, "log-level", envOr("TEND_LOG_LEVEL", "info"), "debug, info (one line a request), warn or error (env TEND_LOG_LEVEL)")
}

// logger is the log the flags ask for, written to w (stderr: stdout is for
// what a command prints, such as the first start's token or MCP messages).
func (f logFlags) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	switch strings.ToLower(f.level) {
	case "debug":
		level = slog.LevelDebug
	case "info":
		level = slog.LevelInfo
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	default:
		return nil, usageError{fmt.Errorf("--log-level is debug, info, warn or error, not %q", f.level)}
	}
	opts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(f.format) {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, usageError{fmt.Errorf("--log-format is text or json, not %q", f.format)}
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// defaultDBPath is tend.db in the user's data directory.
func defaultDBPath() string {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "tend.db"
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "tend", "tend.db")
}

// openService opens and migrates a database that exists and builds the
// Service on it. Only serve creates a database (createService): a
// mistyped --db must fail here, not leave an empty database behind that
// then answers "unauthorized".
func openService(ctx context.Context, dbPath string, opts store.Options, publicURL string) (*store.DB, *app.Service, error) {
	if err := requireDatabase(dbPath); err != nil {
		return nil, nil, err
	}
	return createService(ctx, dbPath, opts, app.Options{PublicURL: publicURL})
}

// requireDatabase refuses a database file that does not exist.
func requireDatabase(path string) error {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return app.Errorf(app.CodeNotFound, "no database at %s: check --db (or TEND_DB); only tend serve creates one", path)
	}
	return err
}

// createService is openService that creates the database when it does not exist.
func createService(ctx context.Context, dbPath string, opts store.Options, svcOpts app.Options) (*store.DB, *app.Service, error) {
	db, err := store.Open(ctx, dbPath, opts)
	if err != nil {
		return nil, nil, err
	}
	svcOpts.Version = version
	return db, app.New(db, svcOpts), nil
}
