package app

import (
	"context"
)

// What the operator's metrics and access log read of the domain.

// ReadRefusals counts the expensive reads refused since the service
// started (readbudget.go).
type ReadRefusals struct {
	Saturated  int64 // reads_saturated: no slot came free in time
	OverBudget int64 // read_over_budget: the read ran past its budget
}

// ReadRefusals reports the expensive reads refused so far.
func (s *Service) ReadRefusals() ReadRefusals {
	saturated, overBudget := s.budget.Refused()
	return ReadRefusals{Saturated: saturated, OverBudget: overBudget}
}

// AuthorizeMetrics answers nil when a may read the instance's metrics, and
// forbidden otherwise: they describe the whole instance (its size, its
// traffic, its backups), so they are the administrators' (instance:admin),
// like the backups.
func (s *Service) AuthorizeMetrics(ctx context.Context, a Actor) error {
	return s.requireAdmin(ctx, a)
}

// SecretPrefix is the public prefix that a presented secret (a credential
// or a session) claims: safe to log, and enough to trace the secret to its
// record. ok is false when secret does not have a tend secret's shape.
func SecretPrefix(secret string) (prefix string, ok bool) { return secretPrefix(secret) }
