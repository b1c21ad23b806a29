// Command tend is a self-hosted work tracker for people and AI agents: one
// binary, one SQLite file, a JSON API under /v1.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	_ "time/tzdata" // timezones resolve the same on a machine without zoneinfo

	"github.com/spf13/cobra"

	"tend/app"
	"tend/app/outbound"
	"tend/cli"
	"tend/store"
	"tend/web"
	"tend/web/passkeys"
)

// version is the release, set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCmd(os.Stdout, os.Stderr).ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(cli.ExitCode(err))
	}
}

// newRootCmd builds the command tree; tests call it with buffers.
func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	return cli.NewRoot(stdout, stderr, cli.ProcessEnv(version, openFile), serverCmds)
}

// serverCmds are the commands that serve and keep the database file.
func serverCmds(dbPath *string) []*cobra.Command {
	return []*cobra.Command{newServeCmd(dbPath), newTokenCmd(dbPath), newSignInCmd(dbPath), newBackupCmd(dbPath),
		newRestoreCmd(dbPath), newExportCmd(dbPath), newImportCmd(dbPath), newMCPCmd(dbPath), newHealthcheckCmd(), newPromoteCmd()}
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
		return nil, cli.UsageError{Err: fmt.Errorf("--log-level is debug, info, warn or error, not %q", f.level)}
	}
	opts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(f.format) {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, cli.UsageError{Err: fmt.Errorf("--log-format is text or json, not %q", f.format)}
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// openService opens and migrates a database that exists and builds the
// Service on it. Only serve creates a database (createService): a
// mistyped --db must fail here, not leave an empty database behind that
// then answers "unauthorized".
func openService(ctx context.Context, dbPath string, opts store.Options, publicURL string) (*store.DB, *app.Service, error) {
	if err := cli.RequireDatabase(dbPath); err != nil {
		return nil, nil, err
	}
	return createService(ctx, dbPath, opts, app.Options{PublicURL: publicURL})
}

// onService runs fn, for one command, with the Service on the database at
// dbPath (openService), and closes the database after it.
func onService(ctx context.Context, dbPath string, fn func(*app.Service) error) error {
	db, svc, err := openService(ctx, dbPath, store.Options{}, "")
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(svc)
}

// onNewService is onService on a database it creates at dbPath, with its
// instance and administrator (cli.BootstrapFirst, saying so on w).
func onNewService(ctx context.Context, dbPath string, w io.Writer, fn func(*app.Service) error) error {
	db, svc, err := createService(ctx, dbPath, store.Options{}, app.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	if err := cli.BootstrapFirst(ctx, svc, dbPath, w); err != nil {
		return err
	}
	return fn(svc)
}

// onLocalService is onService that first makes the instance and its
// administrator on a database that holds none yet, printing no token, as
// the terminal's first command on a new file does.
func onLocalService(ctx context.Context, dbPath string, fn func(*app.Service) error) error {
	return onService(ctx, dbPath, func(svc *app.Service) error {
		if _, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: cli.LocalTimezone(), NoToken: true}); err != nil {
			return err
		}
		return fn(svc)
	})
}

// createService is openService that creates the database when it does not exist.
func createService(ctx context.Context, dbPath string, opts store.Options, svcOpts app.Options) (*store.DB, *app.Service, error) {
	if svcOpts.Outbound.Allow == nil {
		// The terminal's webhook commands on the file check addresses as
		// the server would: TEND_OUTBOUND_ALLOW is tend serve --outbound-allow's.
		allow, err := outbound.Parse(splitList(os.Getenv("TEND_OUTBOUND_ALLOW")))
		if err != nil {
			return nil, nil, err
		}
		svcOpts.Outbound = allow
	}
	db, err := store.Open(ctx, dbPath, opts)
	if err != nil {
		return nil, nil, err
	}
	svcOpts.Version = version
	svcOpts.Passkeys = passkeys.Ceremonies{}
	return db, app.New(db, svcOpts), nil
}

// openFile is how the terminal commands open the database file: as
// createService does, on the terminal's clock, with its JSON API served in
// process by the router tend serve runs.
func openFile(ctx context.Context, path string, now func() time.Time, logTo io.Writer) (cli.File, error) {
	db, svc, err := createService(ctx, path, store.Options{}, app.Options{})
	if err != nil {
		return cli.File{}, err
	}
	db.Now = now
	log := slog.New(slog.NewTextHandler(logTo, &slog.HandlerOptions{Level: slog.LevelError}))
	return cli.File{Service: svc, Close: func() { _ = db.Close() },
		API: func(a app.Actor) http.RoundTripper { return web.NewServer(svc, log).Transport(a) }}, nil
}
