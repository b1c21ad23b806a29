package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/app/outbound"
	"tend/cli"
	"tend/store"
	"tend/web"
)

type serveFlags struct {
	addr, backupDir, publicURL    string
	allowedHosts                  []string
	admin, instanceName, timezone string
	synchronous                   string
	replicas                      []string
	replicaSync                   time.Duration
	metricsAddr                   string
	outboundAllow                 []string
	trustTailscale                bool
	follow, primaryURL            string
	followInterval, maxLag        time.Duration
	log                           logFlags
}

func newServeCmd(dbPath *string) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the HTTP API",
		Long: `Serve the JSON API under /v1 and the health probes.

On a database that does not exist yet, serve creates the instance, a default
workspace with the default vocabularies and one administrator, and prints an
API token for that administrator once. Later starts print no secret.

With --follow, serve is a read-only standby: it copies the database from
the primary's replica (the URL the primary's --replica names) when the
file does not exist yet, then applies each transaction the replica takes,
and serves every read. Writes are refused with 503 read_only naming
--primary-url. A standby does not replicate: tend promote makes it the
primary in the running process, and it then replicates to a new generation
of the replica it followed, or to the --replica tend promote is given
(docs/selfhost.md, "A warm standby").`,
		Example: `  tend serve
  tend serve --db ./tend.db --addr 127.0.0.1:8421
  TEND_DB=/srv/tend/tend.db tend serve --addr 0.0.0.0:8421 --public-url https://tend.example.ts.net
  tend serve --db standby.db --follow s3://backups/tend --primary-url https://tend.example.ts.net`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.checkReplica(cmd); err != nil {
				return cli.UsageError{Err: err}
			}
			return serve(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), *dbPath, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", envOr("TEND_ADDR", cli.DefaultAddr), "address to listen on (env TEND_ADDR)")
	fl.StringVar(&f.backupDir, "backup-dir", "", "where backups go (default: backups/ beside the database)")
	fl.StringVar(&f.publicURL, "public-url", envOr("TEND_PUBLIC_URL", ""), "the URL users reach this instance at (env TEND_PUBLIC_URL)")
	fl.StringSliceVar(&f.allowedHosts, "allowed-hosts", splitList(os.Getenv("TEND_ALLOWED_HOSTS")),
		"more Host names POST /mcp answers on behind a local reverse proxy, besides loopback and the public URL's host (env TEND_ALLOWED_HOSTS)")
	fl.StringVar(&f.admin, "admin", "admin", "username of the administrator created on first start")
	fl.StringVar(&f.instanceName, "instance-name", "tend", "name of the instance created on first start")
	fl.StringVar(&f.timezone, "timezone", "", "timezone of the instance created on first start (default: the machine's)")
	fl.StringVar(&f.synchronous, "synchronous", envOr("TEND_SYNCHRONOUS", store.SyncNormal),
		"normal: an acknowledged write survives the process being killed; full: it survives power loss too, at an fsync per commit (env TEND_SYNCHRONOUS)")
	fl.StringArrayVar(&f.replicas, "replica", splitList(os.Getenv("TEND_REPLICA")),
		"replicate the database continuously to file:///path, s3://bucket/path[?endpoint=URL] or sftp://user@host/path; credentials from the environment (env TEND_REPLICA; docs/backup.md)")
	fl.DurationVar(&f.replicaSync, "replica-sync-interval", store.DefaultReplicaSyncInterval,
		"how often changes go to the replica: at most this, plus one sync, of acknowledged writes is not yet off the machine (env TEND_REPLICA_SYNC_INTERVAL)")
	fl.StringVar(&f.metricsAddr, "metrics-addr", envOr("TEND_METRICS_ADDR", ""),
		"serve /metrics to anyone reaching HOST:PORT; a bare :PORT listens on loopback only (default: off; admins read /metrics on --addr) (env TEND_METRICS_ADDR)")
	fl.StringArrayVar(&f.outboundAllow, "outbound-allow", splitList(os.Getenv("TEND_OUTBOUND_ALLOW")),
		"let webhooks and notification channels call this loopback, private or local range (CIDR, repeatable); all such ranges are refused otherwise (env TEND_OUTBOUND_ALLOW)")
	fl.BoolVar(&f.trustTailscale, "trust-tailscale", os.Getenv("TEND_TRUST_TAILSCALE") == "1",
		"sign a request from loopback in by its Tailscale-User-Login header, as tailscale serve sends it, to the account linked to that login; never from another peer (env TEND_TRUST_TAILSCALE=1; docs/selfhost.md)")
	fl.StringVar(&f.follow, "follow", envOr("TEND_FOLLOW", ""),
		"serve a read-only standby that follows the primary's replica at this URL (the schemes of --replica); not with --replica (env TEND_FOLLOW)")
	fl.StringVar(&f.primaryURL, "primary-url", envOr("TEND_PRIMARY_URL", ""),
		"with --follow: the primary's address, which a refused write names (env TEND_PRIMARY_URL)")
	fl.DurationVar(&f.maxLag, "max-lag", 30*time.Second,
		"with --follow: /readyz answers 503 while the oldest change not yet applied is older than this")
	fl.DurationVar(&f.followInterval, "follow-interval", 0,
		"with --follow: how often the replica is read for new transactions (default 1s)")
	addLogFlags(cmd, &f.log)
	return cmd
}

func serve(ctx context.Context, stdout, stderr io.Writer, dbPath string, f serveFlags) error {
	log, err := f.log.logger(stderr)
	if err != nil {
		return err
	}
	tuneGC()
	allow, err := outbound.Parse(f.outboundAllow)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	retries, err := testRetryScale()
	if err != nil {
		return cli.UsageError{Err: err}
	}
	metrics := web.NewMetrics(log, version)
	opts := store.Options{BackupDir: f.backupDir, Synchronous: f.synchronous, OnStorage: logStorage(log), OnWriterWait: metrics.ObserveWriterWait,
		ReplicaSyncInterval: f.replicaSync, Log: log, Follow: f.follow, FollowInterval: f.followInterval, PrimaryURL: f.primaryURL}
	if len(f.replicas) == 1 {
		opts.Replica = f.replicas[0]
	}
	p := &primary{f: f, log: log, allow: allow, stdout: stdout}
	// The worker indexes the text of tasks created once creates pause
	// (app/task_index.go).
	db, svc, err := createService(ctx, dbPath, opts, app.Options{PublicURL: f.publicURL,
		TaskIndexBatch: app.DefaultTaskIndexBatch, TaskIndexQuiet: app.DefaultTaskIndexQuiet, Outbound: allow,
		WebhookJitter: retries, Promote: p.promote})
	if err != nil {
		return err
	}
	defer db.Close()
	p.db, p.svc, p.ctx = db, svc, ctx
	if f.timezone == "" {
		p.f.timezone = cli.LocalTimezone()
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	p.serving = app.Serving{Addr: reachable(ln.Addr().String()), PublicURL: f.publicURL}
	defer p.stop()
	if f.follow == "" {
		if err := p.start(ctx); err != nil {
			_ = ln.Close()
			return err
		}
	}
	log.Info("serving", "addr", ln.Addr().String(), "db", dbPath, "version", version, "standby_of", f.primaryURL)
	handler := web.NewServer(svc, log)
	handler.MCP().AllowHosts(f.allowedHosts...)
	if f.trustTailscale {
		handler.TrustTailscale()
	}
	if opts.Replica != "" || opts.Follow != "" {
		handler.SetReplication(db.Replication)
	}
	if opts.Follow != "" {
		handler.SetFollow(followStatus(db), f.maxLag)
	}
	handler.ServeMetrics(metrics)
	metrics.Watch(storeSources(db, opts.Follow != ""))
	stopMetrics, err := startMetrics(log, f.metricsAddr, metrics)
	if err != nil {
		return err
	}
	defer stopMetrics()
	srv := web.HTTPServer(f.addr, handler)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// checkReplica refuses a second replica, which Litestream v0.5 does not
// keep, and reads TEND_REPLICA_SYNC_INTERVAL when the flag is not given.
func (f *serveFlags) checkReplica(cmd *cobra.Command) error {
	if len(f.replicas) > 1 {
		return errors.New("one --replica only: Litestream v0.5 keeps one replica per database (docs/backup.md says how to keep a second copy)")
	}
	if f.follow != "" && len(f.replicas) > 0 {
		return errors.New("--follow and --replica: a standby does not replicate; once promoted it replicates to the replica it followed, or to tend promote --replica URL")
	}
	if f.follow == "" && (f.primaryURL != "" && cmd.Flags().Changed("primary-url") || cmd.Flags().Changed("max-lag") || cmd.Flags().Changed("follow-interval")) {
		return errors.New("--primary-url, --max-lag and --follow-interval are for a standby: give --follow too")
	}
	if v := os.Getenv("TEND_REPLICA_SYNC_INTERVAL"); v != "" && !cmd.Flags().Changed("replica-sync-interval") {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("TEND_REPLICA_SYNC_INTERVAL is a duration such as 1s, not %q", v)
		}
		f.replicaSync = d
	}
	if f.replicaSync < 10*time.Millisecond {
		return fmt.Errorf("--replica-sync-interval is at least 10ms, not %s", f.replicaSync)
	}
	return nil
}

// testRetryScale reads TEND_TEST_RETRY_SCALE, for tests only: a factor
// (such as 0.0001) that shrinks the webhook retry schedule, so that the
// kill -9 drill (e2e/webhook_drill_test.go) can run the built server
// through retries without waiting 5 s, 5 min, … for them. Unset, the
// schedule is the real one, spread as usual.
func testRetryScale() (func(time.Duration) time.Duration, error) {
	v := os.Getenv("TEND_TEST_RETRY_SCALE")
	if v == "" {
		return nil, nil
	}
	scale, err := strconv.ParseFloat(v, 64)
	if err != nil || scale <= 0 || scale > 1 {
		return nil, fmt.Errorf("TEND_TEST_RETRY_SCALE is a factor above 0 and at most 1, not %q", v)
	}
	return func(d time.Duration) time.Duration { return time.Duration(float64(d) * scale) }, nil
}

// logStorage logs each full-disk episode once, when it starts and when it
// ends; the requests refused in between answer storage_full unlogged.
func logStorage(log *slog.Logger) func(full bool, err error) {
	return func(full bool, err error) {
		if full {
			log.Error("the disk holding the database is full: writes are refused until space is freed", "err", err)
			return
		}
		log.Info("the disk holding the database has room again: writes resume")
	}
}

// printFirstStart shows the administrator's token and a sign-in link for a
// browser, the one time they exist in readable form. It goes to stdout,
// never to the log.
func printFirstStart(w io.Writer, first *app.FirstStart, link app.IssuedLoginLink, sv app.Serving) {
	fmt.Fprintf(w, `tend: created instance %q with workspace %q and administrator %q.

API token for %s (shown once, store it now):

    %s

Try it:

    curl -H "Authorization: Bearer %s" http://%s/v1/me

Sign in from a browser (works once, within %d minutes; tend signin --user %s prints another):

    %s

`, first.Instance.Name, first.Workspace.Slug, first.Admin.Username, first.Admin.Username, first.Token.Secret, first.Token.Secret, sv.Addr,
		int(app.LoginLinkLifetime.Minutes()), first.Admin.Username, web.SignInURL(sv.URL(), link.Secret))
}

// reachable is the address a client on this machine connects to for a
// server listening on addr: a wildcard host (0.0.0.0, ::) is reached on
// loopback.
func reachable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		if ip != nil && ip.To4() == nil {
			return net.JoinHostPort("::1", port)
		}
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}
