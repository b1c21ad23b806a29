package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// contribCommand is one tend command line a unit or the Containerfile runs.
type contribCommand struct {
	where string   // file:line
	args  []string // after the binary
}

// checkCommand runs args through the real command tree: each subcommand
// must exist and be runnable, each flag must be one it has, with a value
// it accepts, and the positional arguments must be what it takes.
func checkCommand(t *testing.T, c contribCommand) *cobra.Command {
	t.Helper()
	root := newRootCmd(io.Discard, io.Discard)
	cmd, rest, err := root.Find(c.args)
	if err != nil || cmd == root || !cmd.Runnable() {
		t.Errorf("%s: tend %s names no command (%v)", c.where, strings.Join(c.args, " "), err)
		return nil
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s: tend %s: %v", c.where, strings.Join(c.args, " "), err)
		return nil
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		t.Errorf("%s: tend %s: %v", c.where, strings.Join(c.args, " "), err)
	}
	return cmd
}

// envNames are the TEND_ variables some flag of the command tree reads, as
// its usage says ("(env TEND_DB)").
func envNames() map[string]bool {
	names := map[string]bool{}
	re := regexp.MustCompile(`env (TEND_[A-Z_]+)`)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		visit := func(f *pflag.Flag) {
			for _, m := range re.FindAllStringSubmatch(f.Usage, -1) {
				names[m[1]] = true
			}
		}
		c.Flags().VisitAll(visit)
		c.PersistentFlags().VisitAll(visit)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(io.Discard, io.Discard))
	return names
}

// unit is a systemd unit file's settings, key to values, in order.
type unit map[string][]string

func readUnit(t *testing.T, file string) (unit, map[string]int) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u, lines := unit{}, map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("%s:%d: not KEY=value: %q", file, n, line)
		}
		u[k] = append(u[k], v)
		lines[k+"="+v] = n
	}
	return u, lines
}

// TestSystemdUnits: every command the units run is a real tend command
// line; the system units keep the database inside their StateDirectory
// (the one place ProtectSystem=strict leaves writable) and keep the
// sandbox's essentials; every TEND_ variable they set is one tend reads.
func TestSystemdUnits(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("contrib/systemd/*.service")
	user, _ := filepath.Glob("contrib/systemd/user/*.service")
	if len(files) != 2 || len(user) != 1 {
		t.Fatalf("units: %v %v, want tend.service and tend-backup.service, and a user tend.service", files, user)
	}
	env := envNames()
	for _, file := range append(files, user...) {
		u, lines := readUnit(t, file)
		system := !strings.Contains(file, "/user/")
		for _, key := range []string{"ExecStart", "ExecStartPre", "ExecStartPost", "ExecReload", "ExecStop"} {
			for _, line := range u[key] {
				words := strings.Fields(line)
				where := file + ":" + strconv.Itoa(lines[key+"="+line])
				if want := map[bool]string{true: "/usr/local/bin/tend", false: "%h/.local/bin/tend"}[system]; words[0] != want {
					t.Errorf("%s: runs %s, want %s", where, words[0], want)
				}
				cmd := checkCommand(t, contribCommand{where, words[1:]})
				if cmd == nil || !system {
					continue
				}
				db, _ := cmd.Flags().GetString("db")
				if state := u["StateDirectory"]; len(state) != 1 || path.Dir(db) != "/var/lib/"+state[0] {
					t.Errorf("%s: the database %s is not in the StateDirectory %v", where, db, state)
				}
			}
		}
		for _, e := range u["Environment"] {
			for _, kv := range strings.Fields(e) {
				if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TEND_") && !env[name] {
					t.Errorf("%s: sets %s, which tend does not read", file, name)
				}
			}
		}
		if !system {
			continue
		}
		for _, want := range []string{"DynamicUser=yes", "User=tend", "ProtectSystem=strict", "NoNewPrivileges=yes", "PrivateTmp=yes",
			"ProtectHome=yes", "CapabilityBoundingSet=", "SystemCallFilter=@system-service", "UMask=0077"} {
			k, v, _ := strings.Cut(want, "=")
			found := false
			for _, have := range u[k] {
				found = found || have == v
			}
			if !found {
				t.Errorf("%s: no %s", file, want)
			}
		}
		if len(u["RestrictAddressFamilies"]) == 0 {
			t.Errorf("%s: no RestrictAddressFamilies", file)
		}
	}
}

// TestContainerfile: the image's entry point, default command and
// HEALTHCHECK are real tend command lines, its TEND_ variables are ones
// tend reads, and the database lives on the /data volume.
func TestContainerfile(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("contrib/container/Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	instr := map[string][]string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		op, rest, _ := strings.Cut(line, " ")
		instr[op] = append(instr[op], strings.TrimSpace(rest))
	}
	exec := func(s string) []string {
		var v []string
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatalf("%q is not in exec (JSON) form: %v", s, err)
		}
		return v
	}
	entry := exec(instr["ENTRYPOINT"][0])
	if len(entry) != 1 || entry[0] != "/usr/local/bin/tend" {
		t.Fatalf("ENTRYPOINT %v, want the binary alone", entry)
	}
	checkCommand(t, contribCommand{"Containerfile CMD", exec(instr["CMD"][0])})
	hc := instr["HEALTHCHECK"]
	if len(hc) != 1 || !strings.Contains(hc[0], "CMD [") {
		t.Fatalf("HEALTHCHECK %v", hc)
	}
	probe := exec(hc[0][strings.Index(hc[0], "["):])
	if probe[0] != "/usr/local/bin/tend" {
		t.Errorf("the HEALTHCHECK runs %s", probe[0])
	}
	checkCommand(t, contribCommand{"Containerfile HEALTHCHECK", probe[1:]})

	env, vars := envNames(), map[string]string{}
	for _, e := range instr["ENV"] {
		for _, kv := range strings.Fields(e) {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
			if strings.HasPrefix(k, "TEND_") && !env[k] {
				t.Errorf("ENV %s: tend reads no such variable", k)
			}
		}
	}
	if vol := instr["VOLUME"]; len(vol) != 1 || vol[0] != "/data" || path.Dir(vars["TEND_DB"]) != "/data" {
		t.Errorf("VOLUME %v, TEND_DB %q: the database must be on the /data volume", vol, vars["TEND_DB"])
	}
	if u := instr["USER"]; len(u) != 1 || strings.HasPrefix(u[0], "0") || strings.HasPrefix(u[0], "root") {
		t.Errorf("USER %v: the image must not run as root", u)
	}
}
