package app

import (
	"context"
	"strings"
	"time"
)

// Instance is the installation: an immutable id, a name and a timezone.
type Instance struct {
	ID        string
	Name      string
	Timezone  string
	CreatedAt time.Time
	UpdatedAt time.Time
	Serving   Serving
	// SessionIdleDays is how long a browser session lasts unused, in
	// days (1 to 365); each use slides it.
	SessionIdleDays int
}

// Serving is where tend serve last listened and the public URL it was
// given, kept on the instance when it starts so that commands run later on
// the same file (tend signin) can point at it. Never shown over the API.
type Serving struct {
	Addr      string // host:port a client on this machine reaches
	PublicURL string
}

// URL is where a browser reaches the server: the public URL, else the
// address; "" when no server recorded either.
func (sv Serving) URL() string {
	if sv.PublicURL != "" {
		return sv.PublicURL
	}
	if sv.Addr != "" {
		return "http://" + sv.Addr
	}
	return ""
}

type instanceTx interface {
	Instance(ctx context.Context) (Instance, error)
	InsertInstance(ctx context.Context, in *Instance) error
	UpdateInstance(ctx context.Context, in *Instance) error
	UpdateServing(ctx context.Context, sv Serving) error
}

// RecordServing keeps where tend serve listens and its public URL on the
// instance (see Serving). It records no event: it is the operator's
// configuration, not a change anybody made through tend.
func (s *Service) RecordServing(ctx context.Context, sv Serving) error {
	return s.store.Update(ctx, func(tx Tx) error {
		in, err := tx.Instance(ctx)
		if err != nil || in.Serving == sv {
			return err
		}
		return tx.UpdateServing(ctx, sv)
	})
}

// InstanceUpdate is a change to the instance (PATCH /v1/instance).
type InstanceUpdate struct {
	Name            Patch[string]
	Timezone        Patch[string]
	SessionIdleDays Patch[int]
}

// UpdateInstance renames the instance or changes its timezone.
func (s *Service) UpdateInstance(ctx context.Context, a Actor, in InstanceUpdate) (Instance, error) {
	var errs []error
	if in.Name.Set {
		errs = append(errs, s.checkTitle("body.name", in.Name.Value))
	}
	if in.Timezone.Set {
		errs = append(errs, checkTimezone("body.timezone", in.Timezone.Value))
	}
	if in.SessionIdleDays.Set && (in.SessionIdleDays.Null || in.SessionIdleDays.Value < 1 || in.SessionIdleDays.Value > 365) {
		errs = append(errs, Invalidf("body.session_idle_days", "whole days from 1 to 365"))
	}
	if err := joinErrors(errs...); err != nil {
		return Instance{}, err
	}
	in.Name.Value = strings.TrimSpace(in.Name.Value)
	var out Instance
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		if err := acc.require(PermInstanceAdmin); err != nil {
			return err
		}
		if out, err = tx.Instance(ctx); err != nil {
			return err
		}
		changes := map[string]any{}
		setChange(changes, "name", &out.Name, in.Name)
		setChange(changes, "timezone", &out.Timezone, in.Timezone)
		setChange(changes, "session_idle_days", &out.SessionIdleDays, in.SessionIdleDays)
		if len(changes) == 0 {
			return nil
		}
		out.UpdatedAt = tx.Now()
		if err := tx.UpdateInstance(ctx, &out); err != nil {
			return err
		}
		return record(ctx, tx, a, Event{EntityType: "instance", EntityID: out.ID, Action: "instance.updated", Changes: changes})
	}))
	return out, err
}

// InstanceWorkspaces lists every workspace on the instance, trashed ones
// too, for an administrator.
func (s *Service) InstanceWorkspaces(ctx context.Context, a Actor) ([]WorkspaceOnInstance, error) {
	var out []WorkspaceOnInstance
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		if err := acc.require(PermInstanceAdmin); err != nil {
			return err
		}
		out, err = tx.InstanceWorkspaces(ctx)
		return err
	}))
	return out, err
}

// Instance returns the instance; any authenticated caller may read it.
func (s *Service) Instance(ctx context.Context, a Actor) (Instance, error) {
	var out Instance
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, err = tx.Instance(ctx)
		return err
	})
	return out, err
}
