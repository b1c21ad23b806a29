package app

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The issuing rule, axis by axis: a credential never grants more than the
// one that asks for it. Each grant* resolves what was asked (or inherits the
// issuer's limit when nothing was) and refuses what is wider, with the
// axis's own code.

func grantScopes(issuer *Token, want []string) ([]string, error) {
	if want == nil {
		if issuer == nil {
			return []string{ScopeAll}, nil
		}
		return sortedCopy(issuer.Scopes), nil
	}
	if has(want, ScopeAll) {
		want = []string{ScopeAll}
	}
	if issuer != nil && !has(issuer.Scopes, ScopeAll) {
		for _, w := range want {
			if !has(issuer.Scopes, w) {
				return nil, FieldErrorf(CodeTokenScopeWider, "body.scopes", "scope %q is wider than the issuing credential's scopes %v", w, issuer.Scopes)
			}
		}
	}
	return dedupe(want), nil
}

func grantExpiry(issuer *Token, want Patch[time.Time], now time.Time) (*time.Time, error) {
	var exp *time.Time
	switch {
	case !want.Set:
		if issuer != nil {
			exp = issuer.ExpiresAt
		}
	case !want.Null:
		v := want.Value.UTC().Truncate(time.Millisecond) // as stored, so the comparisons below see what will be kept
		if !v.After(now) {
			return nil, Invalidf("body.expires_at", "expires_at must be in the future")
		}
		exp = &v
	}
	if issuer != nil && issuer.ExpiresAt != nil && (exp == nil || exp.After(*issuer.ExpiresAt)) {
		return nil, FieldErrorf(CodeTokenExpiryLater, "body.expires_at", "the issuing credential expires at %s; a credential it issues cannot outlive it",
			issuer.ExpiresAt.UTC().Format(time.RFC3339))
	}
	return exp, nil
}

func grantWorkspace(ctx context.Context, tx Tx, acc *access, want Patch[string]) (string, error) {
	issuer := acc.actor.Token
	pin := ""
	switch {
	case !want.Set:
		if issuer != nil {
			pin = issuer.WorkspaceID
		}
	case !want.Null && want.Value != "":
		w, err := findWorkspace(ctx, tx, acc, want.Value, false)
		if acc.actor.system {
			w.Workspace, err = workspaceByRef(ctx, tx, want.Value)
		}
		if err != nil && CodeOf(err) != CodeNotFound {
			return "", err
		}
		if err != nil && issuer != nil && issuer.WorkspaceID != "" {
			// A pinned issuer is refused the same way whether or not the workspace exists.
			return "", FieldErrorf(CodeTokenWorkspaceWider, "body.workspace", "the issuing credential is pinned to one workspace; so is everything it issues")
		}
		if err != nil {
			return "", bodyRef(err, "body.workspace", "no such workspace")
		}
		pin = w.Workspace.ID
	}
	if issuer != nil && issuer.WorkspaceID != "" && pin != issuer.WorkspaceID {
		return "", FieldErrorf(CodeTokenWorkspaceWider, "body.workspace", "the issuing credential is pinned to one workspace; so is everything it issues")
	}
	return pin, nil
}

// grantProjects resolves the project narrowing for reading and writing and
// checks each against the issuer's.
func grantProjects(ctx context.Context, tx Tx, acc *access, t *Token, in TokenCreate) error {
	issuer := acc.actor.Token
	var inheritRead, inheritWrite []string
	if issuer != nil {
		inheritRead, inheritWrite = issuer.ProjectScope, issuer.ProjectWriteScope
	}
	read, err := resolveProjects(ctx, tx, acc, t.WorkspaceID, in.ProjectScope, inheritRead, "body.project_scope")
	if err != nil {
		return err
	}
	write, err := resolveProjects(ctx, tx, acc, t.WorkspaceID, in.ProjectWriteScope, inheritWrite, "body.project_write_scope")
	if err != nil {
		return err
	}
	if issuer != nil {
		if err := within(ctx, tx, read, issuer.ProjectScope, CodeTokenProjectsWider, "body.project_scope", "read"); err != nil {
			return err
		}
		if err := within(ctx, tx, write, issuer.ProjectWriteScope, CodeTokenWriteWider, "body.project_write_scope", "write in"); err != nil {
			return err
		}
	}
	if read != nil && write != nil {
		if err := within(ctx, tx, write, read, CodeValidation, "body.project_write_scope", "read"); err != nil {
			return Invalidf("body.project_write_scope", "every project the credential may write in must also be one it may read")
		}
	}
	t.ProjectScope, t.ProjectWriteScope = read, write
	return nil
}

// resolveProjects turns project references (ids, keys, or workspace/key)
// into ids; a reference the issuer cannot see answers like one that does not exist.
func resolveProjects(ctx context.Context, tx Tx, acc *access, pin string, want Patch[[]string], inherit []string, loc string) ([]string, error) {
	if !want.Set {
		return inherit, nil
	}
	if want.Null {
		return nil, nil
	}
	ids := []string{}
	for _, ref := range want.Value {
		p, err := projectForScope(ctx, tx, acc, pin, ref)
		if err != nil {
			return nil, bodyRef(err, loc, "no such project: "+ref)
		}
		if pin != "" && p.WorkspaceID != pin {
			return nil, Invalidf(loc, "project %s is not in the workspace the credential is pinned to", ref)
		}
		if !has(ids, p.ID) {
			ids = append(ids, p.ID)
		}
	}
	return ids, nil
}

func projectForScope(ctx context.Context, tx Tx, acc *access, pin, ref string) (Project, error) {
	visible := func(p Project, err error) (Project, error) {
		if err != nil {
			return Project{}, notFoundAs(err, "project")
		}
		if p.DeletedAt != nil {
			return Project{}, NotFound("project")
		}
		if acc.actor.system {
			return p, nil
		}
		w, ok := acc.workspaces[p.WorkspaceID]
		if !ok {
			return Project{}, NotFound("project")
		}
		// A private project the account has no sight of answers like one
		// that does not exist (the credential's own narrowing is checked later).
		sc, err := scopeOf(ctx, tx, acc, w)
		if err != nil {
			return Project{}, err
		}
		if n := sc.byID[p.ID]; n == nil || n.trashed || !n.sight {
			return Project{}, NotFound("project")
		}
		return p, nil
	}
	if _, err := uuid.Parse(ref); err == nil {
		return visible(tx.ProjectByID(ctx, ref))
	}
	if slug, key, ok := strings.Cut(ref, "/"); ok {
		w, err := workspaceByRef(ctx, tx, slug)
		if err != nil {
			return Project{}, notFoundAs(err, "project")
		}
		return visible(tx.ProjectByKey(ctx, w.ID, strings.ToLower(key)))
	}
	key := strings.ToLower(ref)
	if pin != "" {
		return visible(tx.ProjectByKey(ctx, pin, key))
	}
	var found []Project
	for _, w := range acc.live() {
		if p, err := visible(tx.ProjectByKey(ctx, w.Workspace.ID, key)); err == nil {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return Project{}, NotFound("project")
	}
	return Project{}, Invalidf("body.project_scope", "%q is a project key in several workspaces; write it as <workspace slug>/%s", ref, ref)
}

// within checks that every project in want lies inside allowed (itself or
// under one of its projects); nil allowed means no limit, nil want means all.
func within(ctx context.Context, tx Tx, want, allowed []string, code Code, loc, verb string) error {
	if allowed == nil {
		return nil
	}
	wider := FieldErrorf(code, loc, "the credential would %s projects the issuing credential may not", verb)
	if want == nil {
		return wider
	}
	for _, id := range want {
		if has(allowed, id) {
			continue
		}
		up, err := tx.ProjectAncestors(ctx, id)
		if err != nil {
			return err
		}
		ok := false
		for _, a := range up {
			ok = ok || has(allowed, a)
		}
		if !ok {
			return wider
		}
	}
	return nil
}

func dedupe(in []string) []string {
	out := []string{}
	for _, s := range in {
		if !has(out, s) {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
