package storetest

import (
	"testing"

	"tend/app/outbound"
)

// Loopback is the outbound policy of tests whose receivers (webhook
// endpoints, ntfy servers) listen on loopback, which tend dials only when
// allowed.
func Loopback(tb testing.TB) outbound.Policy {
	tb.Helper()
	p, err := outbound.Parse([]string{"127.0.0.0/8"})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
