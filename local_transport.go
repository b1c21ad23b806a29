package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"time"

	"tend/app"
	"tend/store"
	"tend/web"
	"tend/web/cli"
)

// fileOpen says how the terminal commands open the database file.
type fileOpen struct {
	path string
	// chosen is true when --db or TEND_DB named the file: it must exist.
	// The default one is created on first use, unless noCreate.
	chosen, noCreate bool
	user             string // the account to act as; "" the oldest active administrator
	now              func() time.Time
	stderr           io.Writer // says that the file was created, and logs an internal error's cause
}

// openFileAPI opens the database file and serves its JSON API in process,
// through the router tend serve runs, as the account the commands act as:
// the transport, where tend serve last said it serves the file ("" when it
// never has) and what closes the file. Beside a running server that is
// safe: both hold the file's shared lock, SQLite's own locks order their
// writes, and every cache the server keeps is keyed on a revision any
// write moves, whichever process writes.
func openFileAPI(ctx context.Context, o fileOpen) (rt http.RoundTripper, webURL string, closeFile func(), err error) {
	_, err = os.Stat(o.path)
	create := errors.Is(err, fs.ErrNotExist) && !o.chosen && !o.noCreate
	var db *store.DB
	var svc *app.Service
	if create {
		db, svc, err = createService(ctx, o.path, store.Options{}, app.Options{})
	} else {
		db, svc, err = openService(ctx, o.path, store.Options{}, "")
	}
	if err != nil {
		return nil, "", nil, err
	}
	db.Now = o.now
	if create {
		if _, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: localTimezone(), NoToken: true}); err != nil {
			_ = db.Close()
			return nil, "", nil, err
		}
		fmt.Fprintf(o.stderr, "tend: created %s, acting as its administrator (tend serve serves it; tend signin signs a browser in)\n", o.path)
	}
	sess, err := svc.LocalActor(ctx, o.user)
	if err != nil {
		_ = db.Close()
		p := cli.ProblemOf(err)
		if p.Code == app.CodeNotFound {
			p.Fix = "--user (or TEND_USER) names an account of this file; tend token issue --user NAME makes one"
		}
		return nil, "", nil, p
	}
	// The person running the command is the operator who would read an
	// internal error's cause in the server's log.
	log := slog.New(slog.NewTextHandler(o.stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	return web.NewServer(svc, log).Transport(sess.Actor), sess.Serving.URL(), func() { _ = db.Close() }, nil
}
