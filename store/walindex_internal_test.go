package store

import (
	"testing"

	"tend/app"
)

// openTwice opens the database at a new migrated path as a server and as a
// command beside it, bootstraps it, and returns the administrator's secret
// and actor on the second.
func openTwice(t *testing.T) (server, beside *DB, secret string, besideAdmin app.Actor) {
	t.Helper()
	ctx := t.Context()
	path := migratedPath(t, "tend.db")
	var err error
	for _, db := range []**DB{&server, &beside} {
		if *db, err = Open(ctx, path, Options{}); err != nil {
			t.Fatal(err)
		}
		d := *db
		t.Cleanup(func() {
			if err := d.Close(); err != nil {
				t.Error(err)
			}
		})
	}
	first, err := app.New(beside, app.Options{}).Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	if besideAdmin, err = app.New(beside, app.Options{}).Authenticate(ctx, first.Token.Secret, "test"); err != nil {
		t.Fatal(err)
	}
	return server, beside, first.Token.Secret, besideAdmin
}

// TestWALHeaderRead: the header of a database in use reads ok and valid;
// copies that differ (a write caught halfway) do not read ok, and a header
// with a byte changed, or not initialised, is not valid.
func TestWALHeaderRead(t *testing.T) {
	t.Parallel()
	server, _, _, _ := openTwice(t)
	h, ok := server.wal.start(server.path).header()
	if !ok || !h.valid() {
		t.Fatalf("the header of a database in use: ok %v, valid %v", ok, h.valid())
	}
	var words [2 * walHeaderWords]uint64
	copy(words[:], h[:])
	copy(words[walHeaderWords:], h[:])
	fake := &shmView{words: &words}
	if got, ok := fake.header(); !ok || got != h {
		t.Errorf("two equal copies: %v, %v; want the header, ok", got, ok)
	}
	words[walHeaderWords+2]++ // mxFrame and nPage, in the second copy only
	if _, ok := fake.header(); ok {
		t.Error("copies that differ read ok")
	}
	changed := h
	changed[2]++
	if changed.valid() {
		t.Error("a header whose checksum does not hold is valid")
	}
	uninit := h
	uninit[1] &^= 0xff << 32 // isInit, on a little-endian machine; on a big-endian one the checksum fails instead
	if uninit.valid() {
		t.Error("an uninitialised header is valid")
	}
	if _, ok := (*shmView)(nil).header(); ok {
		t.Error("no view reads ok")
	}
}

// TestAuthRevFallsBack: where the header cannot be trusted (its copies
// differ) or there is none (nothing mapped), every check reads the
// revision with a query, and what a second opener commits holds at once.
func TestAuthRevFallsBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		view func() *shmView
	}{
		{"copies differ", func() *shmView {
			var words [2 * walHeaderWords]uint64
			words[walHeaderWords] = 1
			return &shmView{words: &words}
		}},
		{"nothing mapped", func() *shmView { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			server, beside, secret, besideAdmin := openTwice(t)
			server.wal.once.Do(func() { server.wal.view = tc.view() })
			svc := app.New(server, app.Options{})
			if _, err := svc.Authenticate(ctx, secret, "test"); err != nil { // reads and caches
				t.Fatal(err)
			}
			for range 2 {
				before := server.QueryCount()
				if _, err := svc.Authenticate(ctx, secret, "test"); err != nil {
					t.Fatal(err)
				}
				if n := server.QueryCount() - before; n != 1 {
					t.Errorf("a cached check without a usable header took %d statements, want 1 (the revision)", n)
				}
				if server.wal.seen.Load() != nil {
					t.Error("a revision was kept with a header that cannot be trusted")
				}
			}
			if _, err := app.New(beside, app.Options{}).RevokeToken(ctx, besideAdmin, besideAdmin.Token.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Authenticate(ctx, secret, "test"); app.CodeOf(err) != app.CodeUnauthorized {
				t.Fatalf("a credential revoked beside the server: %v; want unauthorized", err)
			}
		})
	}
}
