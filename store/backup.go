package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"tend/app"
)

// Backup file names carry everything a listing reports, so listing needs no
// database: tend-<taken at>-<taken for>-<schema head>.db.
const (
	backupLead       = "tend-"
	backupTimeLayout = "20060102T150405.000Z"
	backupProfile    = "full"
)

func backupName(at time.Time, takenFor, schema string) string {
	return fmt.Sprintf("%s%s-%s-%s.db", backupLead, at.UTC().Format(backupTimeLayout), takenFor, schema)
}

func parseBackupName(name string) (app.Backup, bool) {
	if !strings.HasPrefix(name, backupLead) || !strings.HasSuffix(name, ".db") {
		return app.Backup{}, false
	}
	parts := strings.SplitN(strings.TrimSuffix(strings.TrimPrefix(name, backupLead), ".db"), "-", 3)
	if len(parts) != 3 {
		return app.Backup{}, false
	}
	at, err := time.Parse(backupTimeLayout, parts[0])
	if err != nil {
		return app.Backup{}, false
	}
	return app.Backup{Name: name, Profile: backupProfile, TakenAt: at.UTC(), TakenFor: parts[1], SchemaHead: parts[2]}, true
}

// Backup takes a consistent copy of the live database into the backup
// directory and, with keep > 0, removes all but the newest keep routine
// backups. It is safe while the server writes.
func (db *DB) Backup(ctx context.Context, takenFor string, keep int) (app.Backup, error) {
	return db.takeBackup(ctx, db.maint, takenFor, keep, db.revision)
}

// takeBackup runs VACUUM INTO a temporary name on conn (never a query_only
// reader, where it fails), checks the copy, and renames it into place, so a
// listed backup is always a whole, checked file. One at a time.
func (db *DB) takeBackup(ctx context.Context, conn *sqlx.DB, takenFor string, keep int, schema string) (app.Backup, error) {
	db.backupMu.Lock()
	defer db.backupMu.Unlock()
	if err := ownDir(db.backupDir); err != nil {
		return app.Backup{}, &app.Error{Code: app.CodeBackupUnavailable, Detail: "the backup directory cannot be created", Err: err}
	}
	now := db.Now().UTC().Truncate(time.Millisecond)
	name := backupName(now, takenFor, schema)
	final := filepath.Join(db.backupDir, name)
	if _, err := os.Stat(final); err == nil {
		return app.Backup{}, app.Errorf(app.CodeConflict, "a backup named %s exists already; try again in a moment", name)
	}
	tmp := final + ".tmp"
	_ = os.Remove(tmp)
	// VACUUM INTO fills an empty file and keeps its mode.
	if err := ownFile(tmp); err != nil {
		return app.Backup{}, &app.Error{Code: app.CodeBackupUnavailable, Detail: "the backup file cannot be created", Err: err}
	}
	if _, err := conn.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		_ = os.Remove(tmp)
		return app.Backup{}, mapErr(fmt.Errorf("copying the database: %w", err))
	}
	if err := checkCopy(ctx, tmp); err != nil {
		_ = os.Remove(tmp)
		return app.Backup{}, err
	}
	if err := syncAndRename(tmp, final); err != nil {
		_ = os.Remove(tmp)
		return app.Backup{}, err
	}
	b, _ := parseBackupName(name)
	if fi, err := os.Stat(final); err == nil {
		b.SizeBytes = fi.Size()
	}
	if keep > 0 {
		if err := db.prune(keep); err != nil {
			return b, err
		}
	}
	return b, nil
}

// checkCopy opens the copy on its own and runs integrity_check on it.
func checkCopy(ctx context.Context, path string) error {
	c, err := sqlx.Open("sqlite", path+"?_pragma=query_only(1)")
	if err != nil {
		return err
	}
	defer c.Close()
	var res string
	if err := c.GetContext(ctx, &res, "PRAGMA integrity_check"); err != nil {
		return fmt.Errorf("checking the copy: %w", err)
	}
	if res != "ok" {
		return fmt.Errorf("the copy failed its integrity check: %s", res)
	}
	return nil
}

// syncAndRename makes the copy durable before it gets its final name, and
// the rename durable after.
func syncAndRename(tmp, final string) error {
	f, err := os.Open(tmp)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(final)); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// Backups lists the backups in the backup directory, newest first.
func (db *DB) Backups(ctx context.Context) ([]app.Backup, error) {
	return listBackups(db.backupDir)
}

func listBackups(dir string) ([]app.Backup, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return []app.Backup{}, nil
	}
	if err != nil {
		return nil, &app.Error{Code: app.CodeBackupUnavailable, Detail: "the backup directory cannot be read", Err: err}
	}
	out := []app.Backup{}
	for _, e := range entries {
		b, ok := parseBackupName(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil {
			b.SizeBytes = fi.Size()
		}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].TakenAt.After(out[j].TakenAt) })
	return out, nil
}

// prune keeps the newest keep routine backups; upgrade and restore copies
// are never counted or removed.
func (db *DB) prune(keep int) error {
	all, err := listBackups(db.backupDir)
	if err != nil {
		return err
	}
	seen := 0
	for _, b := range all {
		if b.TakenFor != app.BackupRoutine {
			continue
		}
		seen++
		if seen > keep {
			if err := os.Remove(filepath.Join(db.backupDir, b.Name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// BackupFile backs up the database at path without migrating it, so it can
// run before an upgrade, and while a server has the file open.
func BackupFile(ctx context.Context, path, dir string, keep int) (app.Backup, error) {
	if _, err := os.Stat(path); err != nil {
		return app.Backup{}, fmt.Errorf("no database at %s: %w", path, err)
	}
	if dir == "" {
		dir = filepath.Join(filepath.Dir(path), "backups")
	}
	lock, err := lockShared(path)
	if err != nil {
		return app.Backup{}, err
	}
	defer lock.release()
	conn, err := openPool(ctx, path, basePragmas("NORMAL"), 1)
	if err != nil {
		return app.Backup{}, err
	}
	defer conn.Close()
	var v int
	if err := conn.GetContext(ctx, &v, "PRAGMA user_version"); err != nil {
		return app.Backup{}, err
	}
	names, err := migrationNames()
	if err != nil {
		return app.Backup{}, err
	}
	db := &DB{backupDir: dir, Now: time.Now}
	return db.takeBackup(ctx, conn, app.BackupRoutine, keep, revisionOf(names, v))
}

// ListBackups lists the backups in dir (default: beside the database), newest first.
func ListBackups(path, dir string) ([]app.Backup, error) {
	if dir == "" {
		dir = filepath.Join(filepath.Dir(path), "backups")
	}
	return listBackups(dir)
}
