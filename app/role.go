package app

import "sort"

// Permission names. instance:* are granted by being an administrator (and,
// for workspace:create, by being an account at all); account:write and
// credential:manage by being an account; the rest by a role in a workspace.
// A credential's scopes are drawn from the same names, plus "*".
const (
	PermInstanceAdmin    = "instance:admin"       // rename the instance, see every workspace, take backups
	PermAccountWrite     = "account:write"        // change one's own display name and timezone
	PermCredentialManage = "credential:manage"    // list and revoke every credential of one's account (of the instance, with instance:admin)
	PermUserCreate       = "instance:user_create" // create and deactivate accounts, hand over agents, issue credentials for others
	PermWorkspaceCreate  = "workspace:create"     // create a workspace (the creator becomes its owner)
	PermWorkspaceRead    = "workspace:read"       // see the workspace, its members and its vocabulary
	PermWorkspaceWrite   = "workspace:write"      // rename it, change its settings and vocabularies
	PermWorkspaceDelete  = "workspace:delete"     // trash and restore it
	PermWorkspaceMembers = "workspace:members"    // add members, change their roles, remove them
	PermProjectRead      = "project:read"         // see projects, their members and settings
	PermProjectWrite     = "project:write"        // create, change, share, move and trash projects
	PermItemRead         = "item:read"            // see tasks, documents, comments, links and history
	PermItemWrite        = "item:write"           // create and change tasks, documents, comments, links; claim
	ScopeAll             = "*"                    // a credential that narrows no permission
	RoleOwner            = "owner"
	RoleAdmin            = "admin"
	RoleMember           = "member"
	RoleViewer           = "viewer"
)

// Permission describes one permission name for GET /v1/meta. Needs lists
// the permissions it cannot be used without: items are reached through the
// projects that hold them, and nothing is changed that cannot be read, so
// a credential whose scopes leave a need out is refused when issued
// rather than handed out to see an empty world.
type Permission struct {
	Name        string
	Level       string
	Description string
	Needs       []string
}

// Permissions lists every permission, instance ones first.
var Permissions = []Permission{
	{PermInstanceAdmin, "instance", "rename the instance, see every workspace, take and list backups; with credential:manage, list and revoke every credential", nil},
	{PermAccountWrite, "account", "change one's own account: display name and timezone", nil},
	{PermCredentialManage, "account", "list and revoke every credential of one's account (without it, a credential reaches only itself and those it issued)", nil},
	{PermUserCreate, "instance", "create, deactivate and reactivate accounts, hand agents over, issue credentials for other accounts", nil},
	{PermWorkspaceCreate, "instance", "create a workspace; its creator becomes its owner", nil},
	{PermWorkspaceRead, "workspace", "see the workspace, its members, vocabularies and settings", nil},
	{PermWorkspaceWrite, "workspace", "rename the workspace and change its settings and vocabularies", nil},
	{PermWorkspaceDelete, "workspace", "move the workspace to the trash and restore it", nil},
	{PermWorkspaceMembers, "workspace", "add members, change their roles and remove them", nil},
	{PermProjectRead, "workspace", "see projects, their members and settings", nil},
	{PermProjectWrite, "workspace", "create, change, share, move and trash projects", []string{PermProjectRead}},
	{PermItemRead, "workspace", "see tasks, documents, comments, links and history", []string{PermProjectRead}},
	{PermItemWrite, "workspace", "create and change tasks, documents, comments and links; claim work", []string{PermItemRead, PermProjectRead}},
}

// Role is a named set of workspace permissions. A project role replaces the
// workspace role inside that project.
type Role struct {
	Key         string
	Rank        int
	Permissions []string
	Description string
}

// Roles lists the workspace roles from most to least powerful.
var Roles = []Role{
	{RoleOwner, 4, []string{PermWorkspaceRead, PermWorkspaceWrite, PermWorkspaceDelete, PermWorkspaceMembers,
		PermProjectRead, PermProjectWrite, PermItemRead, PermItemWrite}, "everything, including trashing the workspace"},
	{RoleAdmin, 3, []string{PermWorkspaceRead, PermWorkspaceWrite, PermWorkspaceMembers,
		PermProjectRead, PermProjectWrite, PermItemRead, PermItemWrite}, "runs the workspace: members, vocabularies, settings"},
	{RoleMember, 2, []string{PermWorkspaceRead, PermProjectRead, PermProjectWrite, PermItemRead, PermItemWrite},
		"does the work: projects, tasks, documents"},
	{RoleViewer, 1, []string{PermWorkspaceRead, PermProjectRead, PermItemRead}, "reads everything it can see, changes nothing"},
}

// RoleByKey returns the role named key.
func RoleByKey(key string) (Role, bool) {
	for _, r := range Roles {
		if r.Key == key {
			return r, true
		}
	}
	return Role{}, false
}

func roleKeys() []string {
	out := make([]string, len(Roles))
	for i, r := range Roles {
		out[i] = r.Key
	}
	return out
}

// ScopeNames lists what a credential's scopes may contain.
func ScopeNames() []string {
	out := []string{ScopeAll}
	for _, p := range Permissions {
		out = append(out, p.Name)
	}
	return out
}

// missingNeeds lists, sorted, the permissions that scopes need (see
// Permission.Needs) and leave out; "*" needs nothing.
func missingNeeds(scopes []string) []string {
	if has(scopes, ScopeAll) {
		return nil
	}
	var out []string
	for _, p := range Permissions {
		if !has(scopes, p.Name) {
			continue
		}
		for _, n := range p.Needs {
			if !has(scopes, n) && !has(out, n) {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

func isPermission(name string) bool {
	for _, p := range Permissions {
		if p.Name == name {
			return true
		}
	}
	return false
}

// instancePermissions are what an account holds outside any workspace.
func instancePermissions(u User) []string {
	if u.IsSuperuser {
		return []string{PermAccountWrite, PermCredentialManage, PermInstanceAdmin, PermUserCreate, PermWorkspaceCreate}
	}
	return []string{PermAccountWrite, PermCredentialManage, PermWorkspaceCreate}
}

// narrowTo keeps the permissions in perms that scopes allow, sorted.
func narrowTo(perms, scopes []string) []string {
	out := []string{}
	for _, p := range perms {
		if scopeAllows(scopes, p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func scopeAllows(scopes []string, perm string) bool {
	for _, s := range scopes {
		if s == ScopeAll || s == perm {
			return true
		}
	}
	return false
}

func has(perms []string, p string) bool {
	for _, x := range perms {
		if x == p {
			return true
		}
	}
	return false
}
