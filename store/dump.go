package store

import (
	"context"
	"encoding/json"
	"strings"

	"tend/app"
)

// An export (app/export.go) is written from the list below: every table a
// workspace's records live in, in the order an import writes them back (a
// row after the rows it refers to, except where a table refers to itself),
// each with the columns it carries and what each column holds, which is
// what an import does with it. TestDumpCoversSchema holds the list to the
// migrated schema: every column of every table is carried or named in
// dumpLeftOut with the reason, so a migration cannot add data an export
// would silently lose.

// dumpKind says what a column holds.
type dumpKind uint8

const (
	dText   dumpKind = iota // text
	dInt                    // an integer
	dTime                   // an instant in timeLayout
	dJSON                   // a JSON document: the file holds it as JSON; ids in it follow the import's id map
	dID                     // an id of a row of the file, of the kind its foreign key or importUnkeyed says (load.go): follows the import's id map
	dUser                   // an account's id: the account the import matched or wrote
	dOwnID                  // the row's id, which no other row refers to: a fresh one when ids are mapped
	dToken                  // a credential's id: mapped as dAbout is (credentials are never exported)
	dSeq                    // the row's place in its table: kept into a new database, else the next free one (load.go importSeq)
	dPrefix                 // a calendar feed's public prefix: kept, or a new one when it is taken
	dEmail                  // an account's email: only in an instance administrator's export
	dSecret                 // a secret's hash: never exported; an import writes one nobody holds the secret of
	dAbout                  // an id that need not be a row of the file (what an event is about, a repeat's series): follows the import's id map, else one nothing here has
)

type dumpCol struct {
	name string
	kind dumpKind
}

// dumpTable is one table of an export. from selects the exported rows
// (after the common table expressions of dumpCTE); hidden narrows them
// further when projects are left out; order is the export's order.
type dumpTable struct {
	kind   string
	table  string
	cols   []dumpCol
	from   string
	hidden string
	order  string
	byName map[string]int
}

func cols(spec string) []dumpCol {
	kinds := map[string]dumpKind{"text": dText, "int": dInt, "time": dTime, "json": dJSON, "id": dID, "user": dUser, "own": dOwnID,
		"token": dToken, "seq": dSeq, "prefix": dPrefix, "email": dEmail, "secret": dSecret, "about": dAbout}
	var out []dumpCol
	for _, f := range strings.Fields(spec) {
		name, kind, _ := strings.Cut(f, ":")
		k, ok := kinds[kind]
		if !ok {
			panic("store: dump column " + f + " has no known kind")
		}
		out = append(out, dumpCol{name, k})
	}
	return out
}

// dumpCTE names the selected workspaces (ws), the projects left out (hid)
// and the tasks' and documents' tags as readers see them (ttag, dtag): not
// those of a tag marked deleted whose applications are still being taken
// off (see Tx.HideTag), and a tag merged into another as that one, once
// (tag_merge.go); dumpHiddenCTE adds the items filed in the projects left
// out (hitem) and the comments on any of them (hnote).
var dumpCTE = `WITH ws(id) AS (SELECT value FROM json_each(?1)), hid(id) AS (SELECT value FROM json_each(?2)),
	ttag(task_id, tag_id) AS (SELECT DISTINCT x.task_id, ifnull(g.merged_into, g.id) FROM task_tags x JOIN tags g ON g.id = x.tag_id
		WHERE ` + liveTag("g") + `),
	dtag(document_id, tag_id) AS (SELECT DISTINCT x.document_id, ifnull(g.merged_into, g.id) FROM document_tags x JOIN tags g ON g.id = x.tag_id
		WHERE ` + liveTag("g") + `)`

const (
	dumpHiddenCTE = `, hitem(id) AS (SELECT id FROM tasks WHERE project_id IN hid UNION ALL SELECT id FROM documents WHERE project_id IN hid),
	hnote(id) AS (SELECT id FROM comments WHERE entity_id IN hid OR entity_id IN hitem)`
)

// dumpTables is the export's layout, in order. The instance and the
// accounts come first and are read by their own queries (dumpUsers).
var dumpTables = indexDump([]*dumpTable{
	{kind: "instance", table: "instance", cols: cols(`id:id name:text timezone:text created_at:time updated_at:time`),
		from: `instance`, order: `id`},
	{kind: "user", table: "users", cols: cols(`seq:seq id:user username:text display_name:text email:email timezone:text
		is_service_account:int is_superuser:int answers_to:user active:int deactivated_at:time created_at:time updated_at:time version:int`),
		from: `users WHERE id IN (SELECT id FROM chain)`, order: `seq`},
	{kind: "workspace", table: "workspaces", cols: cols(`id:id slug:text name:text timezone:text next_ref:int settings:json
		created_at:time updated_at:time deleted_at:time version:int`),
		from: `workspaces WHERE id IN ws`, order: `created_at, id`},
	{kind: "workspace_member", table: "workspace_members", cols: cols(`workspace_id:id user_id:user role:text created_at:time`),
		from: `workspace_members WHERE workspace_id IN ws`, order: `workspace_id, created_at, user_id`},
	{kind: "status", table: "statuses", cols: cols(`id:id workspace_id:id entity_type:text key:text label:text category:text
		position:int is_default:int created_at:time updated_at:time`),
		from: `statuses WHERE workspace_id IN ws`, order: `rowid`},
	{kind: "item_type", table: "item_types", cols: cols(`id:id workspace_id:id entity_type:text key:text label:text category:text
		position:int is_default:int`),
		from: `item_types WHERE workspace_id IN ws`, order: `rowid`},
	{kind: "link_type", table: "link_types", cols: cols(`id:id workspace_id:id key:text title:text inverse_title:text
		is_symmetric:int category:text created_at:time`),
		from: `link_types WHERE workspace_id IN ws`, order: `rowid`},
	{kind: "tag", table: "tags", cols: cols(`id:id workspace_id:id name:text description:text declared:int created_at:time`),
		from: `tags WHERE workspace_id IN ws AND deleted_at IS NULL`, order: `rowid`},
	{kind: "project", table: "projects", cols: cols(`id:id workspace_id:id key:text title:text description:text parent_id:id
		visibility:text is_inbox:int owner_id:user status_id:id template:text colour:text settings:json hidden_statuses:json
		archived_at:time created_by:user created_at:time updated_at:time deleted_at:time version:int`),
		from: `projects WHERE workspace_id IN ws`, hidden: `id NOT IN hid`, order: `rowid`},
	{kind: "project_member", table: "project_members", cols: cols(`project_id:id user_id:user created_at:time`),
		from: `project_members WHERE project_id IN (SELECT id FROM projects WHERE workspace_id IN ws)`, hidden: `project_id NOT IN hid`,
		order: `project_id, user_id`},
	{kind: "project_role", table: "project_roles", cols: cols(`project_id:id user_id:user role:text created_at:time`),
		from: `project_roles WHERE project_id IN (SELECT id FROM projects WHERE workspace_id IN ws)`, hidden: `project_id NOT IN hid`,
		order: `project_id, user_id`},
	{kind: "task", table: "tasks", cols: tableCols(taskTable),
		from: `tasks WHERE workspace_id IN ws`, hidden: `project_id NOT IN hid`, order: `seq`},
	{kind: "task_tag", table: "task_tags", cols: cols(`task_id:id tag_id:id`),
		from: `ttag WHERE task_id IN (SELECT id FROM tasks WHERE workspace_id IN ws)`, hidden: `task_id NOT IN hitem`,
		order: `task_id, tag_id`},
	{kind: "document", table: "documents", cols: tableCols(documentTable),
		from: `documents WHERE workspace_id IN ws`, hidden: `project_id NOT IN hid`, order: `seq`},
	{kind: "document_tag", table: "document_tags", cols: cols(`document_id:id tag_id:id`),
		from: `dtag WHERE document_id IN (SELECT id FROM documents WHERE workspace_id IN ws)`, hidden: `document_id NOT IN hitem`,
		order: `document_id, tag_id`},
	{kind: "link", table: "links", cols: cols(`id:id workspace_id:id link_type_id:id source_type:text source_id:id target_type:text
		target_id:id created_by:user created_at:time`),
		from: `links WHERE workspace_id IN ws`, hidden: `source_id NOT IN hitem AND target_id NOT IN hitem`, order: `rowid`},
	{kind: "comment", table: "comments", cols: cols(`seq:seq id:id workspace_id:id entity_type:text entity_id:id author_id:user body:text
		created_at:time updated_at:time deleted_at:time version:int`),
		from: `comments WHERE workspace_id IN ws`, hidden: `id NOT IN hnote`, order: `seq`},
	{kind: "mention", table: "mentions", cols: cols(`target_id:id source_id:id source_type:text workspace_id:id created_at:time`),
		from:   `mentions WHERE workspace_id IN ws`,
		hidden: `target_id NOT IN hitem AND source_id NOT IN hitem AND source_id NOT IN hnote`, order: `target_id, source_id`},
	{kind: "verification", table: "verifications", cols: cols(`id:id task_id:id passed:int summary:text commit_sha:text tree_hash:text
		output_excerpt:text ran_at:time actor_user_id:user actor_token_id:token`),
		from: `verifications WHERE task_id IN (SELECT id FROM tasks WHERE workspace_id IN ws)`, hidden: `task_id NOT IN hitem`,
		order: `rowid`},
	{kind: "calendar", table: "calendars", cols: cols(`seq:seq id:id prefix:prefix hash:secret secret_rev:int title:text user_id:user
		created_by_token:token workspace_id:id audience:text project_id:id item_type_ids:json expires_at:time last_polled_at:time
		revoked_at:time etag:text changed_at:time created_at:time`),
		from: `calendars WHERE workspace_id IN ws`, hidden: `(project_id IS NULL OR project_id NOT IN hid)`, order: `seq`},
	{kind: "external_id", table: "external_ids", cols: cols(`workspace_id:id source:text external_id:text entity_type:text entity_id:id
		updated_at:time imported:json`),
		from: `external_ids WHERE workspace_id IN ws`, hidden: `entity_id NOT IN hitem AND entity_id NOT IN hid AND entity_id NOT IN hnote`,
		order: `workspace_id, source, external_id`},
	{kind: "dav_object", table: "dav_objects", cols: cols(`task_id:id workspace_id:id name:text uid:text parent_uid:text extra:text rev:int`),
		from: `dav_objects WHERE workspace_id IN ws`, hidden: `task_id NOT IN hitem`, order: `task_id`},
	{kind: "event", table: "events", cols: cols(`seq:seq id:own workspace_id:id project_id:id entity_type:text entity_id:about action:text
		actor_user_id:user actor_token_id:token actor_interface:text subject_type:text subject_id:about changes:json item_ref:int
		item_title:text created_at:time`),
		from: `events e WHERE workspace_id IN ws`,
		// Left out with a hidden project: what happened in it or to it,
		// to anything filed in it or said about it, links to anything in
		// it, and every change that names it.
		hidden: `(project_id IS NULL OR project_id NOT IN hid) AND entity_id NOT IN hid AND entity_id NOT IN hitem
		AND entity_id NOT IN hnote AND (subject_id IS NULL OR (subject_id NOT IN hitem AND subject_id NOT IN hnote))
		AND NOT (subject_type = 'link' AND EXISTS (SELECT 1 FROM tasks x WHERE x.workspace_id = e.workspace_id
			AND x.ref = e.changes ->> '$.other' AND x.project_id IN hid UNION ALL SELECT 1 FROM documents x
			WHERE x.workspace_id = e.workspace_id AND x.ref = e.changes ->> '$.other' AND x.project_id IN hid))
		AND NOT EXISTS (SELECT 1 FROM json_tree(e.changes) j WHERE j.atom IN hid)`,
		order: `seq`},
})

// dumpLeftOut names every column and table of the schema an export does
// not carry, with the reason.
var dumpLeftOut = map[string]string{
	"instance.singleton":         "a constant: there is one instance",
	"instance.auth_rev":          "a revision triggers move; the credential cache's, not data",
	"instance.served_addr":       "where this machine's server listened",
	"instance.public_url":        "this machine's configuration",
	"workspaces.scope_rev":       "a revision triggers move (store/cache.go)",
	"workspaces.vocab_rev":       "a revision triggers move (store/cache.go)",
	"workspaces.task_rev":        "a revision triggers move (store/cache.go)",
	"workspaces.task_gen":        "a revision triggers move (store/cache.go)",
	"tags.deleted_at":            "a tag marked deleted is not exported, nor its applications: it is gone (0017)",
	"tags.deletion":              "kept only while a tag marked deleted is purged (0017)",
	"tags.merged_into":           "kept only while a tag merged into another is purged (0021)",
	"tag_notices":                "a tag's change still to be told in some projects (0019): the export carries the events filed so far",
	"dav_departures":             "tasks refiled out of a project (0031), written by a trigger from the events: an import writing the events rebuilds it",
	"dav_lists":                  "the names task apps gave the lists they made (0033): a device's setup, not the work; a copy imported beside its original would take the names its accounts hold there",
	"task_jobs":                  "a change to a subtree still under way (0020): an export taken meanwhile carries the descendants not reached yet as they were",
	"tasks.links_in":             "counted by triggers as links are written",
	"tasks.links_out":            "counted by triggers as links are written",
	"tasks.fact_rev":             "a revision triggers move (store/open_tasks.go)",
	"tokens":                     "credentials: secrets",
	"sessions":                   "browser sessions: secrets",
	"views":                      "saved listings (0026): a person's preferences over the work, not the work; an import starts without them",
	"login_links":                "sign-in links: secrets",
	"invites":                    "invite links (issue 38): secrets, and this server's way in, not the work",
	"invite_uses":                "who joined by which invite (issue 38): the events carry each use",
	"webhooks":                   "webhook endpoints (0029): their secrets sign, so they never leave the server",
	"webhook_deliveries":         "the webhook outbox (0029): this server's deliveries, not the work",
	"webhook_attempts":           "the webhook delivery log (0029): this server's attempts, not the work",
	"device_codes":               "a terminal's browser sign-ins: short-lived secrets",
	"reminder_fires":             "the reminders queued to fire (0032): this server's queue and what it sent, not the work; the tasks carry their reminders",
	"users.reminder_minute":      "a person's own setting (0032), as views are: an import starts with the default",
	"users.default_reminders":    "a person's own setting (0032), as views are: an import starts with none",
	"channels":                   "where a person's notifications go (0034): an ntfy token and a push subscription are secrets, so they never leave the server",
	"notifications":              "the notification outbox (0034): this server's sending, not the work",
	"instance_keys":              "the instance's own keys (0034): secrets",
	"users.digest_minute":        "a person's own setting (0034), as views are: an import starts with the digest off",
	"users.digest_day":           "the day the digest was last queued (0034): this server's sending",
	"passkeys":                   "ways into this server (0037), as sessions are: a passkey is bound to this server's address, not the work",
	"webauthn_challenges":        "passkey ceremonies under way (0037): short-lived",
	"instance.session_idle_days": "this machine's configuration (0038), as its public URL is",
	"users.tailscale_login":      "a link to this server's tailnet (0038): a copy imported elsewhere must not sign anyone in by it",
	"sqlite_sequence":            "SQLite's own: AUTOINCREMENT's high-water marks",
	"tasks_fts":                  "the search index, rebuilt by triggers and the worker as tasks are written (0023)",
	"tasks_unindexed":            "the tasks whose text is still to index (0023): queued again by triggers as tasks are written",
	"documents_fts":              "the search index, rebuilt by triggers as documents are written",
	"document_chunks_fts":        "the search index of large bodies, rebuilt by the worker as documents are written (0022)",
	"document_chunking":          "the large bodies still to index (0022): queued again by triggers as documents are written",
}

// tableCols is the columns of an item table (store/columns.go) as an
// export carries them, so that a column added to the table is exported
// without a line here.
func tableCols[T any](tb *itemTable[T]) []dumpCol {
	out := make([]dumpCol, len(tb.cols))
	for i, c := range tb.cols {
		out[i] = dumpCol{c.name, c.dump}
	}
	return out
}

func indexDump(ts []*dumpTable) []*dumpTable {
	for _, t := range ts {
		t.byName = map[string]int{}
		for i, c := range t.cols {
			t.byName[c.name] = i
		}
	}
	return ts
}

func dumpTableOf(kind string) *dumpTable {
	for _, t := range dumpTables {
		if t.kind == kind {
			return t
		}
	}
	return nil
}

// dumpUsersCTE selects the accounts the workspaces refer to (chain), with
// everyone up their chains of responsibility: an agent's row cannot be
// written without the account it answers to.
const dumpUsersCTE = `, refs(id) AS (
	SELECT user_id FROM workspace_members WHERE workspace_id IN ws
	UNION SELECT owner_id FROM projects WHERE workspace_id IN ws
	UNION SELECT created_by FROM projects WHERE workspace_id IN ws
	UNION SELECT user_id FROM project_members WHERE project_id IN (SELECT id FROM projects WHERE workspace_id IN ws)
	UNION SELECT user_id FROM project_roles WHERE project_id IN (SELECT id FROM projects WHERE workspace_id IN ws)
	UNION SELECT assignee_id FROM tasks WHERE workspace_id IN ws
	UNION SELECT claimed_by FROM tasks WHERE workspace_id IN ws
	UNION SELECT created_by FROM tasks WHERE workspace_id IN ws
	UNION SELECT updated_by FROM tasks WHERE workspace_id IN ws
	UNION SELECT owner_id FROM documents WHERE workspace_id IN ws
	UNION SELECT revised_by FROM documents WHERE workspace_id IN ws
	UNION SELECT created_by FROM documents WHERE workspace_id IN ws
	UNION SELECT updated_by FROM documents WHERE workspace_id IN ws
	UNION SELECT created_by FROM links WHERE workspace_id IN ws
	UNION SELECT author_id FROM comments WHERE workspace_id IN ws
	UNION SELECT actor_user_id FROM verifications WHERE task_id IN (SELECT id FROM tasks WHERE workspace_id IN ws)
	UNION SELECT user_id FROM calendars WHERE workspace_id IN ws
	UNION SELECT actor_user_id FROM events WHERE workspace_id IN ws
	UNION SELECT subject_id FROM events WHERE workspace_id IN ws AND subject_type = 'user'),
chain(id) AS (SELECT id FROM refs WHERE id IS NOT NULL
	UNION SELECT u.answers_to FROM users u JOIN chain c ON u.id = c.id WHERE u.answers_to IS NOT NULL)`

// ExportRows reads the selected rows in export order and hands each to emit.
func (t *Tx) ExportRows(ctx context.Context, sel app.ExportSelection, emit func(*app.Record) error) error {
	ws, _ := json.Marshal(sel.WorkspaceIDs)
	hidden, _ := json.Marshal(sel.Hidden)
	if sel.Hidden == nil {
		hidden = []byte("[]")
	}
	for _, d := range dumpTables {
		q := dumpCTE
		if len(sel.Hidden) > 0 {
			q += dumpHiddenCTE
		}
		if d.kind == "user" {
			q += dumpUsersCTE
		}
		if err := t.exportTable(ctx, d, q, string(ws), string(hidden), sel, emit); err != nil {
			return err
		}
	}
	return nil
}

// exportTable reads one table's selected rows.
func (t *Tx) exportTable(ctx context.Context, d *dumpTable, cte, ws, hidden string, sel app.ExportSelection, emit func(*app.Record) error) error {
	var names []string
	var kinds []dumpKind
	for _, c := range d.cols {
		if c.kind == dSecret || (c.kind == dEmail && !sel.Emails) {
			continue
		}
		names = append(names, c.name)
		kinds = append(kinds, c.kind)
	}
	where := d.from
	if len(sel.Hidden) > 0 && d.hidden != "" {
		if strings.Contains(where, " WHERE ") {
			where += " AND " + d.hidden
		} else {
			where += " WHERE " + d.hidden
		}
	}
	q := cte + " SELECT " + strings.Join(names, ", ") + " FROM " + where + " ORDER BY " + d.order
	rows, err := t.tx.QueryContext(ctx, q, ws, hidden)
	if err != nil {
		return mapErr(err)
	}
	defer rows.Close()
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	rec := &app.Record{Kind: d.kind, Fields: make([]app.Field, len(names))}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return mapErr(err)
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			if s, ok := v.(string); ok && kinds[i] == dJSON && json.Valid([]byte(s)) {
				v = app.JSONText(s)
			}
			rec.Fields[i] = app.Field{Name: names[i], Value: v}
		}
		if err := emit(rec); err != nil {
			return err
		}
	}
	return mapErr(rows.Err())
}
