package app

import (
	"context"
	"strconv"

	"github.com/google/uuid"
)

// bodyRef turns a not-found reference inside a request body into a
// validation problem naming the field; other errors pass through.
func bodyRef(err error, loc, msg string) error {
	if CodeOf(err) == CodeNotFound {
		return Invalidf(loc, "%s", msg)
	}
	return err
}

// inWorkspace opens the caller's scope in the workspace named (or the only one).
func inWorkspace(ctx context.Context, tx Tx, a Actor, workspace string) (*scope, error) {
	acc, w, err := pickWorkspace(ctx, tx, a, workspace)
	if err != nil {
		return nil, err
	}
	return scopeOf(ctx, tx, acc, w)
}

// withScope makes a transaction body that opens the scope of the workspace
// named (inWorkspace) first, for the methods that act in one workspace.
func withScope(ctx context.Context, a Actor, workspace string, fn func(tx Tx, sc *scope) error) func(Tx) error {
	return func(tx Tx) error {
		sc, err := inWorkspace(ctx, tx, a, workspace)
		if err != nil {
			return err
		}
		return fn(tx, sc)
	}
}

// withFound makes a transaction body that first finds what a call addresses
// by id, ref or key with find (writableTask, findProject, …), then runs fn
// on the scope and the item found.
func withFound[S, T any](ctx context.Context, a Actor, workspace, idOrRef string,
	find func(context.Context, Tx, Actor, string, string) (S, T, error), fn func(tx Tx, sc S, it T) error) func(Tx) error {
	return func(tx Tx) error {
		sc, it, err := find(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return err
		}
		return fn(tx, sc, it)
	}
}

// locatedTask opens the scope of a task addressed by id or ref and
// locates it there: live, and in a project the caller may read.
func locatedTask(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string) (*scope, ItemLocation, error) {
	sc, err := taskScope(ctx, tx, a, workspace, idOrRef)
	if err != nil {
		return nil, ItemLocation{}, err
	}
	loc, err := findTaskIn(ctx, tx, sc, idOrRef)
	return sc, loc, err
}

// pickWorkspace resolves the caller's access and the workspace it acts in:
// the one named, or its only one.
func pickWorkspace(ctx context.Context, tx Tx, a Actor, workspace string) (*access, wsAccess, error) {
	acc, err := accessOf(ctx, tx, a)
	if err != nil {
		return nil, wsAccess{}, err
	}
	w, err := acc.pick(workspace)
	return acc, w, err
}

// itemScope opens the scope for an item addressed by id (whatever workspace
// holds it) or ref (in the workspace named, or the only one). locate finds
// the item by id in any workspace; what names it in the not-found answer.
func itemScope(ctx context.Context, tx Tx, a Actor, workspace, idOrRef, what string,
	locate func(ctx context.Context, workspaceID, idOrRef string) (ItemLocation, error)) (*scope, error) {
	if workspace == "" {
		if _, err := uuid.Parse(idOrRef); err == nil {
			loc, err := locate(ctx, "", idOrRef)
			if err != nil {
				return nil, notFoundAs(err, what)
			}
			workspace = loc.WorkspaceID
		}
	}
	sc, err := inWorkspace(ctx, tx, a, workspace)
	if CodeOf(err) == CodeNotFound && workspace != "" {
		return nil, NotFound(what)
	}
	return sc, err
}

// itemGet reads the one task or document idOrRef names in one read
// transaction: scope opens the caller's scope for it, and read reads the
// items with the id, or the ref, through that scope (exactly one of the
// two is set). The read filters through what the caller may read, so
// absent, trashed and unseen all answer not_found alike. Refs start at 1:
// "0" is no ref, and read as an id it names nothing.
func itemGet[T any](ctx context.Context, s *Service, what, idOrRef string,
	scope func(tx Tx) (*scope, error), read func(tx Tx, sc *scope, ids []string, ref int64) ([]T, error)) (T, error) {
	var out T
	err := s.store.View(ctx, func(tx Tx) error {
		sc, err := scope(tx)
		if err != nil {
			return err
		}
		ids, ref := []string{idOrRef}, int64(0)
		if n, err := strconv.ParseInt(idOrRef, 10, 64); err == nil && n > 0 {
			ids, ref = nil, n
		}
		items, err := read(tx, sc, ids, ref)
		if err != nil {
			return err
		}
		if len(items) == 0 {
			return NotFound(what)
		}
		out = items[0]
		return nil
	})
	return out, err
}

// writableItem finds the live task or document (what) idOrRef names that
// the caller may change: it opens the scope for it, locates it through
// locate as one the caller may read, requires the right to change items in
// its project, and reads it with read.
func writableItem[T any](ctx context.Context, tx Tx, a Actor, workspace, idOrRef, what string,
	locate func(ctx context.Context, workspaceID, idOrRef string) (ItemLocation, error),
	read func(sc *scope, id string) (T, error)) (*scope, T, error) {
	var none T
	sc, err := itemScope(ctx, tx, a, workspace, idOrRef, what, locate)
	if err != nil {
		return nil, none, err
	}
	loc, err := findItemIn(ctx, sc, idOrRef, what, locate)
	if err != nil {
		return nil, none, err
	}
	if err := sc.byID[loc.ProjectID].requireItemWrite(); err != nil {
		return nil, none, err
	}
	it, err := read(sc, loc.ID)
	return sc, it, err
}
