// Command tend is a self-hosted work tracker for people and AI agents: one
// binary, one SQLite file, a JSON API under /v1.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
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
		var u usageError
		if errors.As(err, &u) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// usageError marks a mistake in how the command was called (exit status 2).
type usageError struct{ error }

// newRootCmd builds the command tree; tests call it with buffers.
func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	var dbPath string
	root := &cobra.Command{
		Use:           "tend",
		Short:         "A self-hosted work tracker for people and AI agents",
		Long:          "tend keeps tasks, documents and projects for people and AI agents in one SQLite file and serves them as a JSON API.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.PersistentFlags().StringVar(&dbPath, "db", envOr("TEND_DB", defaultDBPath()), "SQLite database file (env TEND_DB)")
	root.AddCommand(newServeCmd(&dbPath), newTokenCmd(&dbPath), newSignInCmd(&dbPath), newBackupCmd(&dbPath), newRestoreCmd(&dbPath), newMCPCmd(&dbPath))
	markArgErrors(root)
	return root
}

// markArgErrors makes a wrong number of arguments a usageError, as
// SetFlagErrorFunc does for flags: cobra returns both as plain errors.
func markArgErrors(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		markArgErrors(sub)
	}
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

// openService opens and migrates the database and builds the Service on it.
func openService(ctx context.Context, dbPath string, opts store.Options, publicURL string) (*store.DB, *app.Service, error) {
	db, err := store.Open(ctx, dbPath, opts)
	if err != nil {
		return nil, nil, err
	}
	return db, app.New(db, app.Options{Version: version, PublicURL: publicURL}), nil
}
