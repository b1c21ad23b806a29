package app

import (
	"context"
	"time"
)

// Backup describes one copy of the database. Name is a file name only: no
// server path is ever reported.
type Backup struct {
	Name       string
	Profile    string
	SchemaHead string
	SizeBytes  int64
	TakenAt    time.Time
	TakenFor   string
}

// Reasons a backup was taken. Only routine backups count against keep.
const (
	BackupRoutine = "routine"
	BackupUpgrade = "upgrade"
	BackupRestore = "restore"
)

// TakeBackup takes a consistent backup of the live database and, when keep
// is given, keeps only the newest keep routine backups. Administrators only.
func (s *Service) TakeBackup(ctx context.Context, a Actor, keep *int) (Backup, error) {
	if keep != nil && *keep < 1 {
		return Backup{}, Invalidf("body.keep", "keep is at least 1")
	}
	if err := s.requireAdmin(ctx, a); err != nil {
		return Backup{}, err
	}
	n := 0
	if keep != nil {
		n = *keep
	}
	return s.store.Backup(ctx, BackupRoutine, n)
}

// Backups lists the backups, newest first. Administrators only.
func (s *Service) Backups(ctx context.Context, a Actor) ([]Backup, error) {
	if err := s.requireAdmin(ctx, a); err != nil {
		return nil, err
	}
	return s.store.Backups(ctx)
}

func (s *Service) requireAdmin(ctx context.Context, a Actor) error {
	return s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		return acc.require(PermInstanceAdmin)
	}))
}
