package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"tend/cli"
	"tend/store"
	"tend/web"
)

// storeSources are the store's readings /metrics reports. A standby
// (following) reports its lag, and its replication once promoted.
func storeSources(db *store.DB, following bool) web.MetricsSources {
	src := web.MetricsSources{Files: db.FileSizes, OpenSessions: db.OpenSessions, NewestBackup: db.NewestBackup,
		WritersWaiting: db.WritersWaiting, Now: db.Now}
	if _, ok := db.Replication(); ok || following {
		src.Replication = func() []web.ReplicaStatus {
			st, ok := db.Replication()
			if !ok {
				return nil
			}
			return []web.ReplicaStatus{{Name: st.Replica, LastSync: st.LastSync, Lag: st.Lag, Errors: st.Errors}}
		}
	}
	if following {
		src.Follow = followStatus(db)
	}
	return src
}

// metricsListenAddr is where --metrics-addr listens. /metrics there answers
// anyone who reaches it, so a bare ":PORT" (which Go would take for every
// interface) means loopback: only an address the operator names, such as
// 0.0.0.0:9464 or a Tailscale address, opens it wider.
func metricsListenAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", cli.UsageError{Err: fmt.Errorf("--metrics-addr is HOST:PORT or :PORT: %w", err)}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// startMetrics serves /metrics on a listener of its own when addr is set;
// the returned func closes it.
func startMetrics(log *slog.Logger, addr string, m *web.Metrics) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	addr, err = metricsListenAddr(addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := web.HTTPServer(addr, m.Handler())
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("serving metrics", "err", err)
		}
	}()
	log.Info("serving metrics", "addr", ln.Addr().String())
	return func() { _ = srv.Close() }, nil
}
