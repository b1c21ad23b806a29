package store

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// recordedLog keeps the records logged through it, at every level.
type recordedLog struct {
	mu      sync.Mutex
	records []slog.Record
}

func (l *recordedLog) Enabled(context.Context, slog.Level) bool { return true }

func (l *recordedLog) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.records = append(l.records, r.Clone())
	return nil
}

func (l *recordedLog) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *recordedLog) WithGroup(string) slog.Handler      { return l }

// take answers the messages logged since the last take, by level.
func (l *recordedLog) take() map[slog.Level][]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	msgs := map[slog.Level][]string{}
	for _, r := range l.records {
		msgs[r.Level] = append(msgs[r.Level], r.Message)
	}
	l.records = nil
	return msgs
}

// A replica that fails logs one error when replication starts failing
// and one line when it recovers; Litestream's own errors, which its
// monitors repeat every round while the replica is down, go to debug.
// Those monitors run on Litestream's clock (every 15 and 30 seconds), so
// the test logs what they log, through the loggers Litestream was given.
func TestReplicationLogsTheChangeOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocked := filepath.Join(dir, "replica")
	if err := os.WriteFile(blocked, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := &recordedLog{}
	db := openMigrated(t, "tend.db", Options{Replica: "file://" + blocked, ReplicaSyncInterval: time.Hour, Log: slog.New(logs)})
	litestreamRounds := func() {
		down := errors.New("the replica cannot be reached")
		db.repl.Load().db.Logger.Error("compaction failed", "level", 1, "error", down)
		db.repl.Load().db.Logger.Error("l0 retention enforcement failed", "error", down)
		db.repl.Load().store.Logger.Warn("timeout waiting for db initialization")
	}
	logs.take() // "replicating"
	for range 3 {
		if err := db.SyncReplica(t.Context()); err == nil {
			t.Fatal("sync to a replica that is a file succeeded")
		}
		litestreamRounds()
	}
	got := logs.take()
	if len(got[slog.LevelError]) != 1 || got[slog.LevelError][0] != "replication failing: changes stay on this machine until the replica can be reached" {
		t.Errorf("errors logged over three failing rounds: %q; want the one saying replication fails", got[slog.LevelError])
	}
	if len(got[slog.LevelWarn]) != 0 || len(got[slog.LevelInfo]) != 0 {
		t.Errorf("over three failing rounds, also logged %q and %q", got[slog.LevelWarn], got[slog.LevelInfo])
	}
	compaction := slices.Contains(got[slog.LevelDebug], "compaction failed")
	repeats := slices.DeleteFunc(slices.Clone(got[slog.LevelDebug]), func(m string) bool {
		return m != "l0 retention enforcement failed" && m != "timeout waiting for db initialization"
	})
	if len(repeats) != 6 || !compaction {
		t.Errorf("Litestream's repeated errors are not at debug: %q", got[slog.LevelDebug])
	}

	if err := os.Remove(blocked); err != nil {
		t.Fatal(err)
	}
	if err := db.SyncReplica(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := logs.take(); len(got[slog.LevelInfo]) != 1 || got[slog.LevelInfo][0] != "replication recovered" || len(got[slog.LevelError]) != 0 {
		t.Errorf("logged at recovery: %q", got)
	}
	// Once replication is up, an error of Litestream's is news the first
	// time, and a repeat again goes to debug.
	litestreamRounds()
	litestreamRounds()
	if got := logs.take(); len(got[slog.LevelError]) != 2 || len(got[slog.LevelWarn]) != 1 {
		t.Errorf("Litestream's errors logged twice while replication is up came out as %q; want each once at its level", got)
	}
}
