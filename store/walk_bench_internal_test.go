package store

import (
	"context"
	"fmt"
	"testing"

	"tend/app"
)

// BenchmarkWalks times the statements that walk a chain when they run:
// the token check's read of an agent three below its person (each time
// auth_rev has moved), a session's check (every browser request) for the
// same agent, and a task's subtree of 300 descendants (trash, restore,
// move).
func BenchmarkWalks(b *testing.B) {
	ctx := context.Background()
	db, svc, admin := walkService(b)
	boss := admin.User.Username
	for i := range 3 {
		name := fmt.Sprint("bot", i)
		if _, err := svc.CreateUser(ctx, admin, app.UserCreate{Username: name, IsServiceAccount: true, AnswersTo: boss}); err != nil {
			b.Fatal(err)
		}
		boss = name
	}
	tok, err := svc.CreateToken(ctx, admin, app.TokenCreate{Title: "bench", Username: boss})
	if err != nil {
		b.Fatal(err)
	}
	root, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "root"})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 300 {
		parent := root.Ref
		if i >= 10 {
			parent = root.Ref + 1 + int64(i%10)
		}
		if _, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: fmt.Sprint("sub ", i), Parent: app.FlexRef(fmt.Sprint(parent))}); err != nil {
			b.Fatal(err)
		}
	}
	if err := db.Update(ctx, func(tx app.Tx) error {
		u, err := tx.UserByName(ctx, boss)
		if err != nil {
			return err
		}
		far := tx.Now().AddDate(1, 0, 0)
		return tx.InsertSession(ctx, &app.Session{ID: "s", Prefix: "tend_sessionbench", Hash: []byte{0}, UserID: u.ID,
			LastSeenAt: tx.Now(), IdleUntil: far, ExpiresAt: far, CreatedAt: tx.Now()})
	}); err != nil {
		b.Fatal(err)
	}
	b.Run("credential of an agent 3 deep", func(b *testing.B) {
		for b.Loop() {
			var r credentialRow
			if err := db.auth.GetContext(ctx, &r, credentialSelect, tok.Prefix); err != nil || !r.ChainActive.Bool {
				b.Fatal(err, r.ChainActive)
			}
		}
	})
	b.Run("session of an agent 3 deep", func(b *testing.B) {
		for b.Loop() {
			if err := db.View(ctx, func(tx app.Tx) error {
				s, err := tx.SessionByPrefix(ctx, "tend_sessionbench")
				if err == nil && !s.ChainActive {
					err = fmt.Errorf("chain inactive")
				}
				return err
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("subtree of 300", func(b *testing.B) {
		for b.Loop() {
			if err := db.View(ctx, func(tx app.Tx) error {
				ids, err := tx.TaskSubtree(ctx, root.ID)
				if err == nil && len(ids) != 301 {
					err = fmt.Errorf("%d in the subtree", len(ids))
				}
				return err
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
