package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tend/app"
)

// DefaultAddr is where tend serve listens unless told otherwise; on the
// database file, where tend open assumes the web app is when tend serve
// never said.
const DefaultAddr = "127.0.0.1:8421"

// UsageError marks a mistake in how the command was called (exit status 2).
type UsageError struct{ Err error }

func (u UsageError) Error() string { return u.Err.Error() }

// NewRoot builds the command tree: tend, its --db flag, the terminal
// commands and help topics, and the commands server makes of the --db
// flag's value (main gives serving and keeping the database; nil gives
// none).
func NewRoot(stdout, stderr io.Writer, env *Env, server func(dbPath *string) []*cobra.Command) *cobra.Command {
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
		Version:       env.version,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return UsageError{withHelp(cmd, err)} })
	db := os.Getenv("TEND_DB")
	if db == "" {
		db = defaultDBPath()
	}
	root.PersistentFlags().StringVar(&dbPath, "db", db, "SQLite database file (env TEND_DB)")
	root.AddGroup(&cobra.Group{ID: "work", Title: "Tasks and documents:"}, &cobra.Group{ID: "server", Title: "Serving and keeping the database:"})
	for _, c := range workCmds(env, &dbPath) {
		c.GroupID = "work"
		root.AddCommand(c)
	}
	if server != nil {
		for _, c := range server(&dbPath) {
			c.GroupID = "server"
			root.AddCommand(c)
		}
	}
	addHelpTopics(root)
	markArgErrors(root)
	return root
}

// markArgErrors makes a wrong number of arguments a UsageError, as
// SetFlagErrorFunc does for flags: cobra returns both as plain errors.
func markArgErrors(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return UsageError{withHelp(cmd, err)}
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

// RequireDatabase refuses a database file that does not exist: only tend
// serve (and the terminal commands on the default file) create one, so a
// mistyped --db fails here rather than leave an empty database behind
// that then answers "unauthorized".
func RequireDatabase(path string) error {
	_, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return app.Errorf(app.CodeNotFound, "no database at %s: check --db (or TEND_DB); only tend serve creates one", path)
	}
	return err
}

// LocalTimezone guesses the machine's IANA zone for a new database: TZ,
// then /etc/timezone, else UTC.
func LocalTimezone() string {
	for _, tz := range []string{os.Getenv("TZ"), readTrimmed("/etc/timezone")} {
		if tz != "" && tz != "Local" {
			if _, err := time.LoadLocation(tz); err == nil {
				return tz
			}
		}
	}
	return "UTC"
}

func readTrimmed(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
