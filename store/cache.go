package store

import "tend/app"

// caches is every cache the store keeps. Each value is read together with a
// revision column in the same snapshot and served only while that revision
// stands (see revCache); triggers move the revision in the transaction of
// any change to what the value was read from, so no write path can forget.
//
//	cache      key                     revision              moved by (triggers, migration)
//	creds      token prefix            instance.auth_rev     tokens: UPDATE OF every column a check reads, that is
//	                                                         all but last_used_at (tokens_auth_upd, 0008), DELETE
//	                                                         (tokens_auth_del); users: UPDATE, DELETE
//	                                                         (users_auth_upd, users_auth_del); projects: UPDATE OF
//	                                                         key, DELETE (projects_auth_key, projects_auth_del) (0006)
//	scopes     workspace, account      workspaces.scope_rev  projects: INSERT, UPDATE, DELETE; project_members:
//	                                                         INSERT, DELETE; project_roles: INSERT, UPDATE, DELETE
//	                                                         (*_scope_*, 0003)
//	statuses   workspace               workspaces.vocab_rev  statuses, item_types, link_types: INSERT, UPDATE,
//	itemTypes  workspace               workspaces.vocab_rev  DELETE (*_vocab_*, 0005); all three caches share the
//	linkTypes  workspace               workspaces.vocab_rev  one revision
//	openTasks  workspace               workspaces.task_rev,  tasks: INSERT, UPDATE OF every column the agenda places
//	                                   task_gen, vocab_rev   by, DELETE; links: INSERT, UPDATE, DELETE (*_rev_*,
//	                                                         0014); a newer revision merges the tasks changed since
//	                                                         (tasks.fact_rev) instead of missing (open_tasks.go)
//
// Cached values are shared between requests, so nothing changes one in
// place: the vocabulary caches hand out and keep clones, a scope's rows, the
// project trees resolved from them and the open tasks are read-only (a write
// changes a clone of the project, see app's Project.clone), and a
// credential's last use is refreshed by replacing its entry
// (touchCredential).
//
// Within a transaction the revisions are read once each, not once per
// cache consulted: a vocab_rev read (with scope_rev, or by a vocabulary
// look-up) is remembered until the transaction runs a statement that may
// write (revsRead, writer.go).
//
// The credential cache's revision is itself read without a query while the
// -shm's WAL-index header shows that nothing was committed since it was read
// (walindex.go).
//
// One more cache keeps no data: each pooled connection keeps its prepared
// statements (stmtcache.go), keyed by SQL text; the schema never changes
// under a running server, so nothing invalidates it.
type caches struct {
	creds     revCache[app.CredentialCheck]
	scopes    revCache[app.ScopeRows]
	statuses  revCache[[]app.Status]
	itemTypes revCache[[]app.ItemType]
	linkTypes revCache[[]app.LinkType]
	openTasks openTasksCache
}
