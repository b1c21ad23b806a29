package app

import (
	"context"
	"strings"
)

// vocabKind is one of a workspace's three vocabularies (statuses, item
// types, link types) as the code that reads and changes them all alike
// sees it: how to read its entries and what to call them.
type vocabKind[T any] struct {
	noun, nouns string // "status" and "statuses", in refusals
	event       string // the entity type of its events
	list        func(tx Tx, ctx context.Context, workspaceID string) ([]T, error)
	byID        func(tx Tx, ctx context.Context, id string) (T, error) // nil for item types, which are never changed one by one
	entry       func(T) vocabEntry
}

// vocabEntry is what every vocabulary's entries share. EntityType and
// IsDefault are empty for link types, which apply to every item and have
// no default.
type vocabEntry struct {
	ID, WorkspaceID, EntityType, Key string
	IsDefault                        bool
}

var (
	statusKind = vocabKind[Status]{noun: "status", nouns: "statuses", event: "status", list: Tx.Statuses, byID: Tx.StatusByID,
		entry: func(st Status) vocabEntry {
			return vocabEntry{st.ID, st.WorkspaceID, st.EntityType, st.Key, st.IsDefault}
		}}
	itemTypeKind = vocabKind[ItemType]{noun: "type", nouns: "types", list: Tx.ItemTypes,
		entry: func(it ItemType) vocabEntry {
			return vocabEntry{it.ID, it.WorkspaceID, it.EntityType, it.Key, it.IsDefault}
		}}
	linkTypeKind = vocabKind[LinkType]{noun: "link type", nouns: "link types", event: "link_type", list: Tx.LinkTypes, byID: Tx.LinkTypeByID,
		entry: func(lt LinkType) vocabEntry { return vocabEntry{ID: lt.ID, WorkspaceID: lt.WorkspaceID, Key: lt.Key} }}
)

// byKey finds the entry for entity keyed key, in any case, or the
// default for an empty key. A key that names none is a validation problem
// at loc that lists the keys there are.
func (v vocabKind[T]) byKey(ctx context.Context, tx Tx, workspaceID, entity, key, loc string) (T, error) {
	all, err := v.list(tx, ctx, workspaceID)
	var none T
	if err != nil {
		return none, err
	}
	var keys []string
	for _, x := range all {
		e := v.entry(x)
		if e.EntityType != entity {
			continue
		}
		keys = append(keys, e.Key)
		if (key == "" && e.IsDefault) || strings.EqualFold(e.Key, key) {
			return x, nil
		}
	}
	what := v.noun
	if entity != "" {
		what = entity + " " + what
	}
	return none, Invalidf(loc, "no %s %q; %s are %s", what, key, v.nouns, joinWords(keys))
}

// statusFor resolves a status key for an entity type, or the default for "".
func statusFor(ctx context.Context, tx Tx, workspaceID, entity, key, loc string) (Status, error) {
	return statusKind.byKey(ctx, tx, workspaceID, entity, key, loc)
}

// itemTypeFor resolves an item type key for an entity type, or the default for "".
func itemTypeFor(ctx context.Context, tx Tx, workspaceID, entity, key, loc string) (ItemType, error) {
	return itemTypeKind.byKey(ctx, tx, workspaceID, entity, key, loc)
}

// linkTypeByKey finds a link type in a workspace by key.
func linkTypeByKey(ctx context.Context, tx Tx, workspaceID, key, loc string) (LinkType, error) {
	return linkTypeKind.byKey(ctx, tx, workspaceID, "", key, loc)
}

// listed reads the vocabulary of a workspace the caller reaches: the one
// named, or its only one.
func (v vocabKind[T]) listed(ctx context.Context, tx Tx, a Actor, workspace string) ([]T, error) {
	_, w, err := pickWorkspace(ctx, tx, a, workspace)
	if err != nil {
		return nil, err
	}
	return v.list(tx, ctx, w.Workspace.ID)
}

// writable reads the entry id for a caller who may change the vocabulary
// of its workspace. An entry of a workspace the caller does not reach is
// not found, as one that does not exist.
func (v vocabKind[T]) writable(ctx context.Context, tx Tx, a Actor, id string) (T, error) {
	x, err := v.byID(tx, ctx, id)
	if err != nil {
		return x, notFoundAs(err, v.noun)
	}
	_, w, err := entryWorkspace(ctx, tx, a, v.entry(x).WorkspaceID, v.noun)
	if err != nil {
		return x, err
	}
	return x, w.require(PermWorkspaceWrite)
}

// record records what was done to entry x: <event>.<action>.
func (v vocabKind[T]) record(ctx context.Context, tx Tx, a Actor, x T, action string, changes map[string]any) error {
	e := v.entry(x)
	return record(ctx, tx, a, Event{WorkspaceID: e.WorkspaceID, EntityType: v.event, EntityID: e.ID, Action: v.event + "." + action,
		Changes: changes})
}

// vocabWorkspace resolves a workspace whose vocabulary the caller may change.
func vocabWorkspace(ctx context.Context, tx Tx, a Actor, workspace string) (Workspace, error) {
	_, w, err := pickWorkspace(ctx, tx, a, workspace)
	if err != nil {
		return Workspace{}, err
	}
	return w.Workspace, w.require(PermWorkspaceWrite)
}

// entryWorkspace resolves the workspace of an entry found by id; an entry
// in an unreachable workspace is not found.
func entryWorkspace(ctx context.Context, tx Tx, a Actor, workspaceID, what string) (*access, wsAccess, error) {
	acc, err := accessOf(ctx, tx, a)
	if err != nil {
		return nil, wsAccess{}, err
	}
	w, err := acc.workspace(workspaceID, false)
	return acc, w, notFoundAs(err, what)
}
