package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"

	"tend/app"
)

// A restore puts a copy in place of the database, and never loses the file
// it replaces:
//
//  1. it takes the database's lock exclusively (lock.go), so it is refused
//     while a server or any other tend command has the file open, and
//     nothing opens it until the restore is over;
//  2. it makes the copy under a temporary name beside the database (a
//     backup is copied with its -wal, if it has one; a replica is rebuilt
//     by Litestream), checks it with PRAGMA integrity_check, refuses a
//     schema newer than this binary, migrates it forward if it is older,
//     and counts what it holds;
//  3. it checkpoints the current database into its main file, then renames
//     it (its -wal and -shm too, and Litestream's directory) aside to
//     <name>.before-restore-<UTC time>;
//  4. it renames the copy into place.
//
// Until step 3 nothing of the current database is touched but its log being
// checkpointed; a failure there leaves it as it was. After it, the previous
// database is in the aside file, whatever happens next; restoring that file
// brings it back.

// RestoreReport says what a restore put in place.
type RestoreReport struct {
	From        string    // the backup's file name or the replica's name
	At          time.Time // the point in time asked of a replica; zero for its latest
	Path        string    // the database restored
	Aside       string    // where the previous database was moved; "" when there was none
	SchemaFrom  string    // the copy's schema as it was restored
	SchemaTo    string    // its schema after migrating forward; equal to SchemaFrom when current
	Tasks       int
	Documents   int
	Projects    int
	NewestEvent time.Time // zero when the copy records no event
}

// RestoreFile replaces the database at path with the backup at src: a file
// tend backup wrote, or any tend database (an aside file of an earlier
// restore, say), whose -wal comes along when it has one.
func RestoreFile(ctx context.Context, src, path string) (RestoreReport, error) {
	if err := notSameFile(src, path); err != nil {
		return RestoreReport{}, err
	}
	return restore(ctx, path, RestoreReport{From: filepath.Base(src)}, false, func(tmp string) error {
		return copyDatabase(src, tmp)
	})
}

// RestoreReplica replaces the database at path with what the replica at
// replicaURL held at the instant at (zero: its latest), rebuilt by Litestream
// into a new file first. The URL is read as Options.Replica is.
func RestoreReplica(ctx context.Context, replicaURL string, at time.Time, path string) (RestoreReport, error) {
	client, name, err := replicaClient(replicaURL)
	if err != nil {
		return RestoreReport{}, err
	}
	return restore(ctx, path, RestoreReport{From: name, At: at}, false, func(tmp string) error {
		if err := client.Init(ctx); err != nil {
			return fmt.Errorf("reaching the replica %s: %w", name, err)
		}
		return restoreInto(ctx, client, name, tmp, at, 0)
	})
}

// restoreInto has Litestream rebuild in tmp what the replica held at the
// instant at, or at the TXID txid; both zero: its latest.
func restoreInto(ctx context.Context, client litestream.ReplicaClient, name, tmp string, at time.Time, txid ltx.TXID) error {
	opt := litestream.NewRestoreOptions()
	opt.OutputPath = tmp
	opt.Timestamp = at
	opt.TXID = txid
	if err := litestream.NewReplicaWithClient(nil, client).Restore(ctx, opt); err != nil {
		return noReplicaDatabase(name, err)
	}
	return os.Chmod(tmp, fileMode)
}

// noReplicaDatabase words a failure to restore from the replica name.
func noReplicaDatabase(name string, err error) error {
	if err == nil || errors.Is(err, litestream.ErrTxNotAvailable) || errors.Is(err, litestream.ErrNoSnapshots) {
		return fmt.Errorf("the replica %s holds no database at that point: nothing was replicated there, or not yet at that time", name)
	}
	return fmt.Errorf("restoring from the replica %s: %w", name, err)
}

// restore makes the copy with fill and puts it in place. exact refuses a copy
// of another schema than this binary's, rather than migrating it: a standby
// must hold the primary's pages unchanged.
func restore(ctx context.Context, path string, rep RestoreReport, exact bool, fill func(tmp string) error) (_ RestoreReport, err error) {
	rep.Path = path
	if err := makeDatabaseDir(path); err != nil {
		return rep, err
	}
	lock, err := lockExclusive(path)
	if err != nil {
		return rep, err
	}
	defer lock.release()
	// Under the lock, a file by the temporary name is a failed restore's.
	tmp := path + ".restoring"
	removeDatabase(tmp)
	defer func() {
		if err != nil {
			removeDatabase(tmp)
		}
	}()
	if err := fill(tmp); err != nil {
		return rep, err
	}
	if err := checkCopy(ctx, tmp); err != nil {
		return rep, err
	}
	if err := prepareCopy(ctx, tmp, &rep, exact); err != nil {
		return rep, err
	}
	if rep.Aside, err = setAside(ctx, path, time.Now()); err != nil {
		return rep, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return rep, fmt.Errorf("putting the restored copy in place (the previous database is %s): %w", rep.Aside, err)
	}
	syncDir(filepath.Dir(path))
	return rep, nil
}

// prepareCopy migrates the checked copy forward, counts what it holds, and
// folds its log into its main file so that one file is what gets renamed.
func prepareCopy(ctx context.Context, tmp string, rep *RestoreReport, exact bool) error {
	w, names, err := openMigrator(ctx, tmp, "FULL")
	if err != nil {
		return err
	}
	defer w.Close()
	var have, tables int
	if err := w.GetContext(ctx, &have, "PRAGMA user_version"); err != nil {
		return err
	}
	if err := w.GetContext(ctx, &tables, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('instance', 'tasks', 'events')"); err != nil {
		return err
	}
	if have == 0 || tables != 3 {
		return errors.New("the copy is not a tend database")
	}
	if have > len(names) {
		return app.Errorf(app.CodeSchemaTooNew, "the copy's schema (version %d) is newer than this binary's (%d): restore it with the tend that wrote it", have, len(names))
	}
	rep.SchemaFrom, rep.SchemaTo = revisionOf(names, have), revisionOf(names, len(names))
	if exact && have != len(names) {
		return fmt.Errorf("the replica's schema is %s and this binary's %s: follow it with the primary's version of tend", rep.SchemaFrom, rep.SchemaTo)
	}
	if have < len(names) {
		if err := (&DB{write: w}).applyMigrations(ctx, names, have); err != nil {
			return fmt.Errorf("migrating the copy from %s: %w", rep.SchemaFrom, err)
		}
	}
	var newest sql.NullString
	row := w.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM tasks), (SELECT count(*) FROM documents), (SELECT count(*) FROM projects),
		(SELECT created_at FROM events ORDER BY seq DESC LIMIT 1)`)
	if err := row.Scan(&rep.Tasks, &rep.Documents, &rep.Projects, &newest); err != nil {
		return fmt.Errorf("counting what the copy holds: %w", err)
	}
	if newest.Valid {
		rep.NewestEvent = parseTime(newest.String)
	}
	var busy, frames, copied int
	if err := w.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &copied); err != nil || busy != 0 {
		return fmt.Errorf("folding the copy's log into it: busy %d, %w", busy, err)
	}
	if err := w.Close(); err != nil {
		return err
	}
	for _, side := range []string{tmp + "-wal", tmp + "-shm"} {
		if err := os.Remove(side); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return os.Chmod(tmp, fileMode)
}

// setAside moves the database at path, if any, with its -wal, its -shm and
// Litestream's directory, to <path>.before-restore-<now>, and returns that
// name. It first checkpoints the database so that the aside file holds
// everything in its main file; a database too damaged for that is moved as
// it is, log beside it. The log goes first: were the move cut short, the
// database at path is still whole, and no stale log waits beside an empty
// place for the restored copy to meet.
func setAside(ctx context.Context, path string, now time.Time) (string, error) {
	present := func(p string) bool { _, err := os.Lstat(p); return err == nil }
	if !present(path) && !present(path+"-wal") && !present(path+"-shm") {
		return "", nil
	}
	if present(path) {
		settle(ctx, path)
	}
	aside := path + ".before-restore-" + now.UTC().Format(backupTimeLayout)
	for _, suffix := range []string{"-wal", "-shm", ""} {
		if !present(path + suffix) {
			continue
		}
		if err := os.Rename(path+suffix, aside+suffix); err != nil {
			return "", fmt.Errorf("moving the current database aside to %s: %w", aside, err)
		}
	}
	dir := filepath.Dir(path)
	meta := filepath.Join(dir, "."+filepath.Base(path)+litestream.MetaDirSuffix)
	if present(meta) {
		if err := os.Rename(meta, filepath.Join(dir, "."+filepath.Base(aside)+litestream.MetaDirSuffix)); err != nil {
			return "", fmt.Errorf("moving Litestream's directory aside: %w", err)
		}
	}
	syncDir(dir)
	return aside, nil
}

// settle checkpoints the database at path into its main file. Best effort:
// see setAside.
func settle(ctx context.Context, path string) {
	c, err := openPool(ctx, path, basePragmas("FULL"), 1)
	if err != nil {
		return
	}
	_, _ = c.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	_ = c.Close()
}

// copyDatabase copies src, and its -wal when it has one, to dst, durably.
func copyDatabase(src, dst string) error {
	if err := copyFile(src, dst); err != nil {
		return fmt.Errorf("copying the backup: %w", err)
	}
	if _, err := os.Stat(src + "-wal"); err == nil {
		if err := copyFile(src+"-wal", dst+"-wal"); err != nil {
			return fmt.Errorf("copying the backup's log: %w", err)
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// notSameFile refuses to restore a database onto itself.
func notSameFile(src, path string) error {
	si, err := os.Stat(src)
	if err != nil {
		return fmt.Errorf("no backup at %s: %w", src, err)
	}
	if !si.Mode().IsRegular() {
		return fmt.Errorf("%s is not a file", src)
	}
	if pi, err := os.Stat(path); err == nil && os.SameFile(si, pi) {
		return errors.New("that is the database itself: name a backup")
	}
	return nil
}

// removeDatabase removes a database file of restore's own making with its
// -wal and -shm (and Litestream's temporary file).
func removeDatabase(p string) {
	for _, f := range []string{p, p + "-wal", p + "-shm", p + ".tmp"} {
		_ = os.Remove(f)
	}
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
