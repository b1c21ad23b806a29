package app

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
)

// scope is what one caller may see and change in one workspace, resolved
// once per request: every project of the workspace with the caller's
// effective role there, whether it is in sight, and what the credential's
// project narrowing allows. Every read and write of projects and the items
// filed in them goes through it; nothing checks access its own way.
type scope struct {
	acc *access
	ws  wsAccess
	*projectTree
}

// projectTree is the part of a scope that follows from the project rows,
// the caller's workspace role and the credential's narrowing alone. Read-only
// transactions share it between requests (see ScopeRows), so nothing may
// change it, or any node in it, once scopeOf has built it; a write works on
// a tree of its own.
type projectTree struct {
	byID     map[string]*projectNode
	byKey    map[string]*projectNode
	ordered  []*projectNode // tree order: parents before children, siblings by key
	readIDs  []string       // projects whose items the caller may read
	readJSON string
	readsAll bool // readIDs holds every project of the workspace: none trashed, none out of sight or scope
}

// projectNode is one project as the caller sees it.
type projectNode struct {
	Project
	parent   *projectNode
	children []*projectNode
	Path     string
	Depth    int
	Role     string // effective role: the nearest project role, else the workspace role
	OwnRole  bool   // Role was set on this very project
	Perms    []string
	trashed  bool // itself or an ancestor is in the trash
	sight    bool // public, or the caller owns or is a member of it (and of every private ancestor)
	inRead   bool // allowed by the credential's project_scope
	inWrite  bool // allowed by the credential's project_write_scope
	member   bool
}

// visible reports whether the project exists for the caller at all.
func (n *projectNode) visible() bool {
	return n != nil && !n.trashed && n.sight && n.inRead && has(n.Perms, PermProjectRead)
}

// visibleTrashed is visible() for a project in the trash, for restore.
func (n *projectNode) visibleTrashed() bool {
	return n != nil && n.trashed && n.sight && n.inRead && has(n.Perms, PermProjectRead)
}

func (n *projectNode) canReadItems() bool { return n.visible() && has(n.Perms, PermItemRead) }
func (n *projectNode) canWriteItems() bool {
	return n.canReadItems() && n.inWrite && has(n.Perms, PermItemWrite)
}
func (n *projectNode) canWrite() bool { return n.inWrite && has(n.Perms, PermProjectWrite) }

// ProjectRole is a role of a project's own held by an account.
type ProjectRole struct {
	ProjectID string
	UserID    string
	Role      string
}

// ScopeProject is a project of a workspace as it bears on one account's
// scope: whether the account is a member of it and the role of its own, if
// any, the account holds there.
type ScopeProject struct {
	Project
	Member bool
	Role   string
}

// ScopeRows is what ScopeProjects answers for one workspace and account.
type ScopeRows struct {
	Projects []ScopeProject
	// Trees, when not nil, keeps the project trees already resolved from
	// these very rows, by role and credential narrowing (*projectTree by
	// treeKey). The store hands the same map to every transaction that
	// reads the same committed revision of the rows, reads and writes
	// alike, so the rows and the resolved trees are shared between requests
	// and never changed: a write works on copies of what it changes.
	Trees *sync.Map
}

type scopeTx interface {
	// ScopeProjects lists every project of a workspace, trashed ones too,
	// each with the account's membership and own role there, in one query.
	ScopeProjects(ctx context.Context, workspaceID, userID string) (ScopeRows, error)
}

// treeKey names everything besides the rows that a project tree follows
// from: the workspace role and what the credential narrows.
func treeKey(acc *access, w wsAccess) string {
	var b strings.Builder
	b.WriteString(w.Role)
	list := func(ids []string) {
		b.WriteByte(0)
		if ids == nil {
			b.WriteByte('*')
		}
		for _, id := range ids {
			b.WriteString(id)
			b.WriteByte(',')
		}
	}
	list(acc.actor.scopes())
	if tok := acc.actor.Token; tok != nil {
		list(tok.ProjectScope)
		list(tok.ProjectWriteScope)
	}
	return b.String()
}

// scopeOf resolves the caller's scope in a reachable workspace.
func scopeOf(ctx context.Context, tx Tx, acc *access, w wsAccess) (*scope, error) {
	rows, err := tx.ScopeProjects(ctx, w.Workspace.ID, acc.actor.User.ID)
	if err != nil {
		return nil, err
	}
	if rows.Trees == nil {
		return &scope{acc: acc, ws: w, projectTree: resolveTree(rows.Projects, acc, w)}, nil
	}
	key := treeKey(acc, w)
	if t, ok := rows.Trees.Load(key); ok {
		return &scope{acc: acc, ws: w, projectTree: t.(*projectTree)}, nil
	}
	t, _ := rows.Trees.LoadOrStore(key, resolveTree(rows.Projects, acc, w))
	return &scope{acc: acc, ws: w, projectTree: t.(*projectTree)}, nil
}

// resolveTree builds the caller's project tree from the rows: paths,
// effective roles and permissions, sight and narrowing, parents first.
func resolveTree(ps []ScopeProject, acc *access, w wsAccess) *projectTree {
	userID := acc.actor.User.ID
	sc := &scope{acc: acc, ws: w, projectTree: &projectTree{byID: map[string]*projectNode{}, byKey: map[string]*projectNode{}}}
	ownRole := map[string]string{}
	for _, p := range ps {
		n := &projectNode{Project: p.Project, member: p.Member}
		sc.byID[p.ID], sc.byKey[p.Key] = n, n
		if p.Role != "" {
			ownRole[p.ID] = p.Role
		}
	}
	var roots []*projectNode
	for _, n := range sc.byID {
		if p := sc.byID[n.ParentID]; p != nil && n.ParentID != "" {
			n.parent = p
			p.children = append(p.children, n)
		} else {
			roots = append(roots, n)
		}
	}
	tok := acc.actor.Token
	perms := map[string][]string{}
	var walk func(ns []*projectNode)
	walk = func(ns []*projectNode) {
		slices.SortFunc(ns, func(a, b *projectNode) int { return strings.Compare(a.Key, b.Key) })
		for _, n := range ns {
			sc.resolve(n, ownRole, tok, userID, perms)
			sc.ordered = append(sc.ordered, n)
			walk(n.children)
		}
	}
	walk(roots)
	sc.readIDs = []string{}
	for _, n := range sc.ordered {
		if n.canReadItems() {
			sc.readIDs = append(sc.readIDs, n.ID)
		}
	}
	b, _ := json.Marshal(sc.readIDs)
	sc.readJSON = string(b)
	sc.readsAll = len(sc.readIDs) == len(sc.ordered)
	return sc.projectTree
}

// resolve fills a node from its parent (already resolved) and its own rows.
// perms holds the permissions each role comes to under the credential, so
// that the nodes of a role share one slice.
func (sc *scope) resolve(n *projectNode, ownRole map[string]string, tok *Token, userID string, perms map[string][]string) {
	p := n.parent
	n.Path, n.Role, n.trashed, n.sight = n.Key, sc.ws.Role, n.DeletedAt != nil, true
	n.inRead = tok == nil || tok.ProjectScope == nil || has(tok.ProjectScope, n.ID)
	n.inWrite = tok == nil || tok.ProjectWriteScope == nil || has(tok.ProjectWriteScope, n.ID)
	if p != nil {
		n.Path, n.Depth = p.Path+"/"+n.Key, p.Depth+1
		n.Role = p.Role
		n.trashed = n.trashed || p.trashed
		n.sight = p.sight
		// Narrowing to a project reaches everything under it.
		n.inRead = n.inRead || p.inRead
		n.inWrite = n.inWrite || p.inWrite
	}
	if r, ok := ownRole[n.ID]; ok {
		n.Role, n.OwnRole = r, true
	}
	if n.Visibility == "private" && n.OwnerID != userID && !n.member && !n.OwnRole {
		n.sight = false
	}
	rolePerms, ok := perms[n.Role]
	if !ok {
		role, _ := RoleByKey(n.Role)
		rolePerms = slices.Clip(narrowTo(role.Permissions, sc.acc.actor.scopes()))
		perms[n.Role] = rolePerms
	}
	n.Perms = rolePerms
}

// project finds a project by id or key. One the caller may not see answers
// exactly like one that does not exist.
func (sc *scope) project(idOrKey string) (*projectNode, error) {
	return sc.projectSeen(idOrKey, (*projectNode).visible)
}

// trashedProject finds a project in the trash that the caller could see.
func (sc *scope) trashedProject(idOrKey string) (*projectNode, error) {
	return sc.projectSeen(idOrKey, (*projectNode).visibleTrashed)
}

// projectSeen finds a project by id or key that seen lets the caller see,
// and answers any other as not found.
func (sc *scope) projectSeen(idOrKey string, seen func(*projectNode) bool) (*projectNode, error) {
	n := sc.byID[idOrKey]
	if n == nil {
		n = sc.byKey[strings.ToLower(idOrKey)]
	}
	if !seen(n) {
		return nil, NotFound("project")
	}
	return n, nil
}

// inbox is the workspace's inbox project, if the caller may see it.
func (sc *scope) inbox() (*projectNode, error) {
	for _, n := range sc.ordered {
		if n.IsInbox && n.visible() {
			return n, nil
		}
	}
	return nil, NotFound("project")
}

// subtree lists a node and every project under it, in tree order.
func (n *projectNode) subtree() []*projectNode {
	out := []*projectNode{n}
	for _, c := range n.children {
		out = append(out, c.subtree()...)
	}
	return out
}

// requireItemWrite refuses when the caller may read items in n but not write them.
func (n *projectNode) requireItemWrite() error {
	if !n.canWriteItems() {
		return Errorf(CodeForbidden, "you may read but not change work in project %s", n.Path)
	}
	return nil
}

// requireWrite refuses when the caller sees n but may not change it.
func (n *projectNode) requireWrite() error {
	if !n.canWrite() {
		return Errorf(CodeForbidden, "you may see but not change project %s", n.Path)
	}
	return nil
}
