package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/web/wire"
)

// login is the server the terminal commands talk to and the credential
// they present: what tend login stores, or TEND_URL and TEND_TOKEN.
type login struct {
	URL   string `json:"url"`
	Token string `json:"token"`
}

// loginFile is where tend login keeps the server and the credential: the
// user's config directory, readable by the user only.
func (e *Env) loginFile() (string, error) {
	dir, err := e.configDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "tend", "login.json"), nil
}

// server is the server the commands talk to: TEND_URL with TEND_TOKEN, else
// what tend login stored; the zero login (the database file) when neither.
func (e *Env) server() (login, error) {
	if u := e.getenv("TEND_URL"); u != "" {
		token := e.getenv("TEND_TOKEN")
		if token == "" {
			return login{}, UsageError{errors.New("TEND_URL is set without TEND_TOKEN: set both, or unset TEND_URL to work on the database file")}
		}
		return login{URL: u, Token: token}, nil
	}
	path, err := e.loginFile()
	if err != nil {
		return login{}, nil // no config directory, so no login
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return login{}, nil
	}
	if err != nil {
		return login{}, err
	}
	var l login
	if err := json.Unmarshal(b, &l); err != nil || l.URL == "" || l.Token == "" {
		return login{}, fmt.Errorf("%s is not a login tend wrote: tend login again, or tend logout", path)
	}
	return l, nil
}

// save writes the login readable by the user only: into a temporary file
// created with mode 0600, then renamed into place.
func (l login) save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".login-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(append(b, '\n')); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

func newLoginCmd(env *Env) *cobra.Command {
	var token string
	var browser bool
	cmd := &cobra.Command{
		Use:   "login URL",
		Short: "Send the terminal commands to a tend server",
		Long: `Check a credential against the server at URL and store both in your config
directory (~/.config/tend/login.json, readable by you only). From then on
tend add, ls, done and the others talk to that server; tend logout goes
back to the database file. The token comes from a line on stdin (at a
terminal tend asks for it), TEND_TOKEN, or --token, which shows in ps and
stays in the shell's history. TEND_URL with TEND_TOKEN does the same
without storing anything, and wins over a stored login.

With --browser no token is needed: tend prints a link and a short code,
you open the link in a browser signed in to tend, check the code and
approve, and tend receives a token of yours for the workspace you chose
(titled "tend on HOST"; revoke it under Account). The link lasts ten
minutes and serves once.`,
		Example: `  tend token issue --user alice --title laptop | tend login http://127.0.0.1:8421`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			u, err := url.Parse(args[0])
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return UsageError{fmt.Errorf("login takes the server's URL, such as http://127.0.0.1:8421, not %q", args[0])}
			}
			base := strings.TrimRight(u.String(), "/")
			if browser && token != "" {
				return UsageError{errors.New("--browser and --token are two ways to sign in: give one")}
			}
			if browser {
				if token, err = browserLogin(cmd, env, base); err != nil {
					return err
				}
			}
			if token == "" {
				token = env.getenv("TEND_TOKEN")
			}
			if token == "" {
				if env.terminal(cmd.InOrStdin()) {
					fmt.Fprint(cmd.ErrOrStderr(), "token: ")
				}
				line, _ := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
				token = strings.TrimSpace(line)
			}
			if token == "" {
				return UsageError{errors.New("give the credential with --token, TEND_TOKEN or on stdin (tend token issue prints one), or sign in with --browser")}
			}
			l := login{URL: base, Token: token}
			me, err := NewRemote(l.URL, l.Token, "", env.version, env.http).Me(cmd.Context())
			if err != nil {
				return refusal{p: asProblem(err)}
			}
			path, err := env.loginFile()
			if err != nil {
				return err
			}
			if err := l.save(path); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "logged in to %s as %s: tend add, ls, done and the others now go there (tend logout undoes it)\n", l.URL, me.User.Username)
			return nil
		},
	}
	cmd.Flags().StringVar(&token, "token", "", "the credential (default: TEND_TOKEN, else a line on stdin, which keeps it out of ps and the shell's history)")
	cmd.Flags().BoolVar(&browser, "browser", false, "sign in through a browser signed in to tend, which approves a short code; no token to copy")
	return cmd
}

// deviceStart is POST /v1/auth/device's answer (RFC 8628).
type deviceStart struct {
	DeviceCode              string `json:"device_code"`
	UserCode                string `json:"user_code"`
	VerificationURIComplete string `json:"verification_uri_complete"`
	ExpiresIn               int    `json:"expires_in"`
	Interval                int    `json:"interval"`
}

// browserLogin signs the terminal in through a browser, in the manner of
// RFC 8628: it asks the server at base for a code, says where to approve
// it (opening the page in a browser at a terminal), and polls, as often
// as the server allows, until the person approves (the new token), denies
// or lets the code expire (its refusal).
func browserLogin(cmd *cobra.Command, env *Env, base string) (string, error) {
	ctx, r := cmd.Context(), NewRemote(base, "", "", env.version, env.http)
	client := "tend"
	if host, err := os.Hostname(); err == nil && host != "" {
		client += " on " + host
	}
	var d deviceStart
	if err := r.call(ctx, http.MethodPost, "/v1/auth/device", nil, map[string]string{"client_name": client}, &d); err != nil {
		return "", refusal{p: asProblem(err)}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "Open %s in a browser signed in to tend and approve the code %s (it lasts %d minutes).\n",
		d.VerificationURIComplete, d.UserCode, d.ExpiresIn/60)
	if env.browse != nil && env.terminal(cmd.ErrOrStderr()) {
		_ = env.browse(d.VerificationURIComplete) // the link is printed for when no browser opens
	}
	interval := time.Duration(d.Interval) * time.Second
	for {
		if err := env.wait(ctx, interval); err != nil {
			return "", err
		}
		var issued struct {
			Token string `json:"token"`
		}
		err := r.call(ctx, http.MethodPost, "/v1/auth/device/token", nil, map[string]string{"device_code": d.DeviceCode}, &issued)
		var p *Problem
		switch {
		case err == nil:
			return issued.Token, nil
		case !errors.As(err, &p):
			return "", err
		case p.Code == app.CodeSlowDown:
			interval += app.DeviceSlowDown
		case p.Code != app.CodeAuthorizationPending:
			return "", refusal{p: p}
		}
	}
}

func newLogoutCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:     "logout",
		Short:   "Forget the stored login: the terminal commands work on the database file again",
		Example: `  tend logout`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			path, err := env.loginFile()
			if err != nil {
				return err
			}
			l, err := env.server()
			if err != nil && !errors.As(err, new(UsageError)) {
				l = login{}
			}
			if err := os.Remove(path); errors.Is(err, fs.ErrNotExist) {
				fmt.Fprintln(cmd.OutOrStdout(), "not logged in: the terminal commands work on the database file")
				return nil
			} else if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "logged out of %s: the terminal commands work on the database file\n", l.URL)
			return nil
		},
	}
}

func newWhoamiCmd(w *work) *cobra.Command {
	return w.call(&cobra.Command{
		Use:   "whoami",
		Short: "Say who the terminal commands act as, and on which server or file",
		Long: `Say who the terminal commands act as, and on which server or database file.
With --json, the record GET /v1/me answers, and "where".`,
		Example: `  tend whoami`,
		Args:    cobra.NoArgs,
	}, func(ctx context.Context, s *session, _ []string) error {
		me, err := s.c.Me(ctx)
		if err != nil {
			return err
		}
		if s.p.Format == FormatJSON {
			return s.p.JSON(struct {
				wire.Me
				Where string `json:"where"`
			}{me, s.c.Where()})
		}
		s.p.line("%s on %s", me.User.Username, s.c.Where())
		return nil
	})
}

// asProblem is err as a Problem when it is one.
func asProblem(err error) *Problem {
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	return &Problem{Detail: err.Error()}
}

// openBrowser opens u in the browser $BROWSER names, else the system's
// opener (xdg-open, open); it fails where there is none.
func openBrowser(u string) error {
	name := os.Getenv("BROWSER")
	if name == "" {
		name = "xdg-open"
		if runtime.GOOS == "darwin" {
			name = "open"
		}
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return err
	}
	return exec.Command(path, u).Start()
}
