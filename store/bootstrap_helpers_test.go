package store_test

import (
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
	svc, a, _ := storetest.Admin(t, db, opts, "test")
	return db, svc, a
}
