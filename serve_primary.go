package main

import (
	"context"
	"io"
	"log/slog"
	"sync"

	"tend/app"
	"tend/app/outbound"
	"tend/store"
	"tend/web"
	"tend/web/hook"
	"tend/web/notify"
)

// primary is what a server that takes writes runs beside its requests:
// the first start (Bootstrap), the record of where it serves, the bulk
// work a stopped server left, and the webhook and notification outboxes.
// A standby (tend serve --follow) runs none of it, as each writes; tend
// promote starts it in the running process (promote).
type primary struct {
	f       serveFlags
	log     *slog.Logger
	allow   outbound.Policy
	stdout  io.Writer
	db      *store.DB
	svc     *app.Service
	serving app.Serving
	ctx     context.Context // the server's: what start starts lives as long as it

	mu      sync.Mutex
	stops   []func() // what start started, stopped in reverse order at shutdown
	started bool
}

// start does what a primary does when it starts.
func (p *primary) start(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	first, err := p.svc.Bootstrap(ctx, app.BootstrapOptions{InstanceName: p.f.instanceName, Timezone: p.f.timezone, AdminUsername: p.f.admin})
	if err != nil {
		return err
	}
	// Bulk work a stopped server left unfinished is finished first thing;
	// at shutdown the step under way ends before the database closes.
	p.svc.ResumeWork()
	p.stops = append(p.stops, p.svc.StopWork)
	p.started = true
	if err := p.svc.RecordServing(ctx, p.serving); err != nil {
		return err
	}
	if first != nil {
		link, err := p.svc.LocalLoginLink(ctx, first.Admin.Username)
		if err != nil {
			return err
		}
		printFirstStart(p.stdout, first, link.IssuedLoginLink, p.serving)
	}
	// The webhook outbox is sent until the server stops; what is in flight
	// then is sent again after the next start (its lease runs out). The
	// notification outbox likewise, beside it.
	p.run(func(ctx context.Context) { hook.New(p.svc, hook.Options{Outbound: p.allow, Log: p.log}).Run(ctx) })
	p.run(func(ctx context.Context) { notify.New(p.svc, notify.Options{Outbound: p.allow, Log: p.log}).Run(ctx) })
	return nil
}

// run runs fn until the server stops; stop waits for it to return.
func (p *primary) run(fn func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(p.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(ctx)
	}()
	p.stops = append(p.stops, func() {
		cancel()
		<-done
	})
}

// stop stops what start started, the last first.
func (p *primary) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.stops) - 1; i >= 0; i-- {
		p.stops[i]()
	}
	p.stops = nil
}

// promote makes the standby the primary (POST /v1/admin/promote, which
// tend promote calls): the store stops following, checks the copy and
// replicates (to replica, or a new generation of the replica it
// followed), and then what a primary runs starts, in this process.
func (p *primary) promote(ctx context.Context, replica string) error {
	if err := p.db.Promote(ctx, replica); err != nil {
		p.log.Error("promotion refused: the server stays a standby", "err", err)
		return &app.Error{Code: app.CodePromoteFailed, Err: err,
			Detail: "the standby could not be promoted (its copy failed the integrity check, or it could not stop following): it stays a standby; the server's log says why"}
	}
	p.log.Info("promoted: this server is the primary and takes writes", "replica", replica != "")
	// The request that asked may be gone; the start is the server's.
	if err := p.start(p.ctx); err != nil {
		p.log.Error("starting as the primary after promotion", "err", err)
		return err
	}
	return nil
}

// followStatus reads a standby's lag for /readyz.
func followStatus(db *store.DB) func() (web.FollowStatus, bool) {
	return func() (web.FollowStatus, bool) {
		l := db.FollowLag()
		if !l.Following {
			return web.FollowStatus{}, false
		}
		return web.FollowStatus{AppliedTXID: l.AppliedTXID, ReplicaTXID: l.ReplicaTXID, Transactions: l.Transactions,
			Behind: l.Behind, LastApplied: l.LastApplied, Err: l.Err}, true
	}
}
