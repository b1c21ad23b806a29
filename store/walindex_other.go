//go:build !(linux || darwin || freebsd)

package store

import "errors"

// mapShm: this platform's -shm is not mapped here, so every token check
// reads auth_rev with a query.
func mapShm(string) (*shmView, error) {
	return nil, errors.New("the WAL index is not mapped on this platform")
}

func unmapShm(*shmView) error { return nil }
