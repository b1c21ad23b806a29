package storetest

import (
	"context"
	"testing"
	"time"

	"tend/app"
	"tend/store"
)

// Admin starts a Service on db, bootstraps the instance (time zone UTC) and
// signs its first administrator in through iface, for the many tests whose
// setup is someone who may do anything. first holds the administrator's
// secret. The Service's worker stops when the test ends, before a database
// opened earlier is closed, so no step of it runs on a closed file.
func Admin(tb testing.TB, db *store.DB, opts app.Options, iface string) (svc *app.Service, admin app.Actor, first *app.FirstStart) {
	tb.Helper()
	ctx := context.Background()
	svc = app.New(db, opts)
	tb.Cleanup(svc.StopWork)
	first, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		tb.Fatal(err)
	}
	if admin, err = svc.Authenticate(ctx, first.Token.Secret, iface); err != nil {
		tb.Fatal(err)
	}
	return svc, admin, first
}

// Options is opts as the tests of other packages run a Service with:
// unless opts sets one, the read budget is ten minutes. It is wall-clock
// time, and a page that takes milliseconds on a quiet machine can take
// seconds under the race detector with the suite's tests running in
// parallel on a loaded one; the tests of the budget set their own.
func Options(opts app.Options) app.Options {
	if opts.Limits.ReadBudgetMillis == 0 {
		opts.Limits.ReadBudgetMillis = int((10 * time.Minute).Milliseconds())
	}
	return opts
}
