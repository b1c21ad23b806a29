package app

import "context"

// A standby (tend serve --follow) serves a copy of the primary's database
// that follows its replica: every read works as on the primary, and every
// write is refused by the store with read_only, naming the primary. A read
// that writes on the side (a session's sliding expiry, a credential's last
// use, a feed's last poll, indexing task text a search waits for) skips
// that write on a standby: ReadOnly says when.

// ReadOnly is the read_only refusal while this server is a standby, nil
// when it takes writes. Pages say so before a form is filled in.
func (s *Service) ReadOnly() error { return s.store.ReadOnly() }

// standby reports whether the store follows a primary and takes no writes.
func (s *Service) standby() bool { return s.store.ReadOnly() != nil }

// Promote makes this standby the primary (tend promote): instance
// administrators only. replica, when set, is where the promoted database
// replicates to; otherwise it replicates to the replica it followed.
// A server that follows nothing answers not_standby.
func (s *Service) Promote(ctx context.Context, a Actor, replica string) error {
	if err := s.requireAdmin(ctx, a); err != nil {
		return err
	}
	if !s.standby() || s.opts.Promote == nil {
		return Errorf(CodeNotStandby, "this server follows no primary: it takes writes already")
	}
	return s.opts.Promote(ctx, replica)
}
