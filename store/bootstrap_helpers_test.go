package store_test

import (
	"context"
	"testing"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// bootstrapped opens a fresh database with a bootstrapped instance and
// answers its Service and the first administrator.
func bootstrapped(t *testing.T) (*store.DB, *app.Service, app.Actor) {
	t.Helper()
	return bootstrappedWith(t, app.Options{})
}

// bootstrappedWith is bootstrapped with the Service's options; the
// Service's worker is stopped when the test ends.
func bootstrappedWith(t *testing.T, opts app.Options) (*store.DB, *app.Service, app.Actor) {
	t.Helper()
	db := storetest.Open(t)
	svc := app.New(db, opts)
	t.Cleanup(svc.StopWork)
	first, err := svc.Bootstrap(context.Background(), app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := svc.Authenticate(context.Background(), first.Token.Secret, "test")
	if err != nil {
		t.Fatal(err)
	}
	return db, svc, a
}
