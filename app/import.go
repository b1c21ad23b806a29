package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// RecordReader reads an export: its header, then its records, then io.EOF
// once the file's last line said how many records it held and that many
// were read. A file cut short is an error, not io.EOF.
type RecordReader interface {
	Header() (ExportHeader, error)
	Next() (*Record, error)
}

// ImportMap is what an import writes in place of the ids of its file. A
// reference must name a row of the file, or an account of it: an import
// never writes into what the instance held before it.
type ImportMap interface {
	// Row maps the id of a row of the file of kind ("task", ...); an id the
	// file gives two rows is refused.
	Row(kind, old string) (string, error)
	// Ref maps a field's reference to a row of the file of kind ("" for a
	// row of any kind): one read before or, checked at the end, after.
	Ref(field, kind, old string) (string, error)
	// User maps a field's reference to an account of the file to the
	// account the import matched or wrote.
	User(field, old string) (string, error)
	// About maps an id that need not be a row of the file: what an event
	// is about (perhaps gone since), a repeat's series. One the file does
	// not hold becomes one nothing here has, unless the database was empty.
	About(old string) string
	// OwnID maps the id of a row nothing else refers to.
	OwnID(old string) string
	// JSON maps the ids a JSON document holds.
	JSON(text string) string
	// FeedPrefix maps a calendar feed's public prefix.
	FeedPrefix(old string) string
	// UnknownSecretHash is a hash no secret anybody holds matches: what a
	// calendar feed is written with, since the file holds no secret.
	UnknownSecretHash() []byte
}

type importTx interface {
	ImportBegin(ctx context.Context, created bool) error
	ImportEnd(ctx context.Context) error
	ImportRecord(ctx context.Context, rec *Record, m ImportMap) error
	ImportRepointUser(ctx context.Context, old, now string) error
	ImportCheck(ctx context.Context) error
}

// ImportReport says what an import did (or, dry, would do).
type ImportReport struct {
	DryRun          bool
	InstanceCreated bool
	// NewIDs is whether every row was given a new id because the file's
	// workspaces are on this instance already (an export imported back as
	// a copy).
	NewIDs     bool
	Workspaces []ImportedWorkspace
	Users      []ImportedUser
	// Records counts what was written by kind, in the file's order.
	Records []KindCount
}

// ImportedWorkspace is one workspace of the file and the slug it has here.
type ImportedWorkspace struct {
	Slug     string
	FileSlug string
}

// ImportedUser is one account of the file, what the import did with it,
// and the rights it has by the import.
type ImportedUser struct {
	Username string // as the file names it
	Local    string // the account here
	Outcome  string // one of the UserOutcome values
	// Administrator is whether the account is an instance administrator.
	Administrator bool
	// AnswersTo is the account here a service account the import created
	// answers to.
	AnswersTo string
	// Roles are the roles the file's records give the account.
	Roles []ImportedRole
}

// ImportedRole is a role an import gives an account: in a workspace, or
// (Project set) of a project of it.
type ImportedRole struct {
	Workspace string // its slug here
	Project   string // the project's key, "" for the workspace's role
	Role      string // member, for a project's member without a role of its own
}

// What an import did with an account of its file.
const (
	UserSame      = "same account" // the account, by id, is on this instance
	UserMatched   = "matched by username"
	UserCreated   = "created"
	UserCreatedNA = "created, not an administrator" // an administrator elsewhere is not one here
)

// KindCount is how many records of a kind an import wrote.
type KindCount struct {
	Kind  string
	Count int
}

// errDryRun rolls a dry run's transaction back.
var errDryRun = errors.New("dry run")

// Import writes an export into this instance in one transaction: all of it
// or, on any error, nothing. Into an empty database (one no tend serve has
// set up) it writes the instance too and reproduces the export exactly:
// every id, ref, sequence number and timestamp. Into an instance already in
// use, each workspace of the file becomes a new workspace (a slug already
// taken gets a suffix), keeping its refs, which are counted per workspace;
// its accounts are the accounts here of the same id or else the same
// username, or are created (never as administrators); and if the file's
// workspaces are here already, every row gets a new id. Only the instance's
// authority may import: the command line, or instance:admin.
func (s *Service) Import(ctx context.Context, a Actor, src RecordReader, dryRun bool) (ImportReport, error) {
	h, err := src.Header()
	if err != nil {
		return ImportReport{}, err
	}
	if err := s.checkImportHeader(h); err != nil {
		return ImportReport{}, err
	}
	rep := ImportReport{DryRun: dryRun}
	err = s.store.Update(ctx, func(tx Tx) error {
		rep = ImportReport{DryRun: dryRun}
		acc, err := accessOf(ctx, tx, a)
		if err != nil {
			return err
		}
		if err := acc.require(PermInstanceAdmin); err != nil {
			return err
		}
		im, err := s.newImporter(ctx, tx, h, &rep)
		if err != nil {
			return err
		}
		defer func() { _ = tx.ImportEnd(ctx) }()
		if err := im.run(src); err != nil {
			return err
		}
		if dryRun {
			return errDryRun
		}
		return nil
	})
	if errors.Is(err, errDryRun) {
		err = nil
	} else if err == nil {
		s.kick() // large bodies imported are indexed in steps (app/background)
	}
	return rep, err
}

// checkImportHeader refuses a file of another format or a newer schema.
func (s *Service) checkImportHeader(h ExportHeader) error {
	if h.Format != ExportFormat {
		return Errorf(CodeInvalid, "line 1: this is an export of format %d; this tend reads format %d", h.Format, ExportFormat)
	}
	if migrationNumber(h.Schema) > migrationNumber(s.store.SchemaRevision()) {
		return Errorf(CodeSchemaTooNew, "line 1: the export was written at schema %s, newer than this tend's %s: upgrade tend first",
			h.Schema, s.store.SchemaRevision())
	}
	return nil
}

func migrationNumber(rev string) int {
	n, _ := strconv.Atoi(strings.SplitN(rev, "_", 2)[0])
	return n
}

// importer is one import under way.
type importer struct {
	ctx    context.Context
	tx     Tx
	rep    *ImportReport
	ids    *idMap
	counts map[string]int
	order  []string
	// bosses lists, by the file's id of an account not read yet, the
	// accounts already written that answer to it.
	bosses map[string]bool
	// users is where each account of the file is in the report, bossOf
	// the file's id of the account each created agent answers to;
	// workspaces and projects name the file's by slug and key here.
	users      map[string]int
	bossOf     map[int]string
	workspaces map[string]string
	projects   map[string]ImportedRole
	shape      *importShape
	s          *Service
}

func (s *Service) newImporter(ctx context.Context, tx Tx, h ExportHeader, rep *ImportReport) (*importer, error) {
	im := &importer{ctx: ctx, tx: tx, rep: rep, ids: &idMap{m: map[string]string{}, rows: map[string]string{}},
		counts: map[string]int{}, bosses: map[string]bool{}, users: map[string]int{}, bossOf: map[int]string{},
		workspaces: map[string]string{}, projects: map[string]ImportedRole{}, shape: newImportShape(), s: s}
	if _, err := tx.Instance(ctx); CodeOf(err) == CodeNotFound {
		rep.InstanceCreated = true
	} else if err != nil {
		return nil, err
	}
	for _, w := range h.Workspaces {
		if _, err := tx.WorkspaceByID(ctx, w.ID); err == nil {
			im.ids.fresh = true
		} else if CodeOf(err) != CodeNotFound {
			return nil, err
		}
	}
	rep.NewIDs = im.ids.fresh
	im.ids.keep = rep.InstanceCreated
	if err := tx.ImportBegin(ctx, rep.InstanceCreated); err != nil {
		return nil, err
	}
	return im, nil
}

// run writes every record of src.
func (im *importer) run(src RecordReader) error {
	for {
		rec, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		im.ids.at = rec
		wrote, err := im.write(rec)
		if err != nil {
			return atLine(rec.Line, err)
		}
		if !wrote {
			continue
		}
		im.shape.note(rec)
		if im.counts[rec.Kind] == 0 {
			im.order = append(im.order, rec.Kind)
		}
		im.counts[rec.Kind]++
	}
	for _, k := range im.order {
		im.rep.Records = append(im.rep.Records, KindCount{k, im.counts[k]})
	}
	if err := im.ids.unresolved(); err != nil {
		return err
	}
	if err := im.shape.check(); err != nil {
		return err
	}
	for i, boss := range im.bossOf {
		im.rep.Users[i].AnswersTo = im.rep.Users[im.users[boss]].Local
	}
	return im.tx.ImportCheck(im.ctx)
}

// write writes one record, reporting whether it did: the instance is
// written only into an empty database, an account only when it is not here.
func (im *importer) write(rec *Record) (bool, error) {
	if err := im.s.checkImported(rec); err != nil {
		return false, err
	}
	switch rec.Kind {
	case "instance":
		if !im.rep.InstanceCreated {
			return false, nil
		}
	case "user":
		return im.user(rec)
	case "workspace":
		if err := im.workspaceSlug(rec); err != nil {
			return false, err
		}
	}
	if err := im.tx.ImportRecord(im.ctx, rec, im.ids); err != nil {
		return false, err
	}
	im.rights(rec)
	return true, nil
}

// rights notes in the report the role a record written gives an account.
func (im *importer) rights(rec *Record) {
	role := ImportedRole{Role: rec.Text("role")}
	switch rec.Kind {
	case "workspace":
		im.workspaces[rec.Text("id")] = rec.Text("slug")
		return
	case "project":
		im.projects[rec.Text("id")] = ImportedRole{Workspace: im.workspaces[rec.Text("workspace_id")], Project: rec.Text("key")}
		return
	case "workspace_member":
		role.Workspace = im.workspaces[rec.Text("workspace_id")]
	case "project_member", "project_role":
		p := im.projects[rec.Text("project_id")]
		role.Workspace, role.Project = p.Workspace, p.Project
		if role.Role == "" {
			role.Role = RoleMember
		}
	default:
		return
	}
	if i, ok := im.users[rec.Text("user_id")]; ok {
		im.rep.Users[i].Roles = append(im.rep.Users[i].Roles, role)
	}
}

// user resolves an account of the file to one here, writing it if there is none.
func (im *importer) user(rec *Record) (bool, error) {
	id, name := rec.Text("id"), rec.Text("username")
	if id == "" || name == "" {
		return false, Errorf(CodeInvalid, "a user record needs an id and a username")
	}
	if err := im.ids.claim("user", id); err != nil {
		return false, err
	}
	out := ImportedUser{Username: name, Local: name}
	wrote := false
	if u, err := im.tx.UserByID(im.ctx, id); err == nil {
		out.Outcome, out.Local, out.Administrator = UserSame, u.Username, u.IsSuperuser
		im.ids.users(id, id)
	} else if CodeOf(err) != CodeNotFound {
		return false, err
	} else if u, err := im.tx.UserByName(im.ctx, name); err == nil {
		out.Outcome, out.Local, out.Administrator = UserMatched, u.Username, u.IsSuperuser
		im.ids.users(id, u.ID)
		if im.bosses[id] {
			if err := im.tx.ImportRepointUser(im.ctx, id, u.ID); err != nil {
				return false, err
			}
		}
	} else if CodeOf(err) != CodeNotFound {
		return false, err
	} else {
		wrote = true
		out.Outcome = UserCreated
		if n, _ := rec.Get("is_superuser").(int64); n != 0 && !im.rep.InstanceCreated {
			rec.Set("is_superuser", int64(0))
			out.Outcome = UserCreatedNA
		}
		out.Administrator = rec.Get("is_superuser") == int64(1)
		im.ids.users(id, id)
		if boss := rec.Text("answers_to"); boss != "" {
			im.bossOf[len(im.rep.Users)] = boss
			if !im.ids.known(boss) {
				im.bosses[boss] = true
			}
		}
		if err := im.tx.ImportRecord(im.ctx, rec, im.ids); err != nil {
			return false, err
		}
	}
	im.users[id] = len(im.rep.Users)
	im.rep.Users = append(im.rep.Users, out)
	return wrote, nil
}

// workspaceSlug gives a workspace whose slug is taken here the first free
// one with a numbered suffix.
func (im *importer) workspaceSlug(rec *Record) error {
	slug := rec.Text("slug")
	if slug == "" {
		return Errorf(CodeInvalid, "a workspace record needs a slug")
	}
	free := slug
	for n := 2; ; n++ {
		_, err := im.tx.WorkspaceBySlug(im.ctx, free)
		if CodeOf(err) == CodeNotFound {
			break
		}
		if err != nil {
			return err
		}
		free = fmt.Sprintf("%s-%d", slug, n)
	}
	rec.Set("slug", free)
	im.rep.Workspaces = append(im.rep.Workspaces, ImportedWorkspace{Slug: free, FileSlug: slug})
	return nil
}

// atLine prefixes an error's detail with the line of the file it is about.
func atLine(line int, err error) error {
	e := AsError(err)
	if e == nil || e.Code == CodeInternal || line == 0 {
		return err
	}
	c := *e
	c.Detail = fmt.Sprintf("line %d: %s", line, e.Detail)
	return &c
}

// idMap is an import's ImportMap. Accounts map to the accounts here; with
// fresh, every other id gets a new one the first time it is seen, and
// feeds a new prefix; otherwise ids are kept.
type idMap struct {
	m     map[string]string
	fresh bool
	// keep: the database was empty, so an id the file does not hold
	// names nothing here and stays as it is.
	keep    bool
	changed bool // some id maps to another
	// rows names, by the file's id, the kind of the row of the file that
	// has it ("user" for its accounts).
	rows map[string]string
	// at is the record being written; later lists the references to rows
	// not read yet, checked by unresolved at the end.
	at    *Record
	later []importRef
}

// importRef is a reference of a record of the file to a row of kind want.
type importRef struct {
	line              int
	kind, field, want string
	id                string
}

// err says that r does not name a row of the file of the kind it must.
func (r importRef) err(have string) error {
	want := "a row of the file"
	if r.want != "" {
		want = "a " + r.want + " of the file"
	}
	if have != "" {
		want += ", but a " + have
	}
	return Errorf(CodeInvalid, "field %q of a %s record names %s, which is not %s: an import refers only to what it brings",
		r.field, r.kind, r.id, want)
}

// claim records that the file's row of kind has the id old.
func (m *idMap) claim(kind, old string) error {
	if have, ok := m.rows[old]; ok {
		return Errorf(CodeInvalid, "a %s record has the id %s, which the file gave a %s already", kind, old, have)
	}
	m.rows[old] = kind
	return nil
}

func (m *idMap) users(old, now string) {
	m.m[old] = now
	if old != now {
		m.changed = true
	}
}

func (m *idMap) known(id string) bool { _, ok := m.m[id]; return ok }

// ID maps an id of the file.
func (m *idMap) ID(old string) string {
	if now, ok := m.m[old]; ok {
		return now
	}
	if !m.fresh {
		return old
	}
	now := newID()
	m.m[old] = now
	m.changed = true
	return now
}

// Row maps the id of a row of the file.
func (m *idMap) Row(kind, old string) (string, error) {
	if err := m.claim(kind, old); err != nil {
		return "", err
	}
	return m.ID(old), nil
}

// Ref maps a reference to a row of the file.
func (m *idMap) Ref(field, kind, old string) (string, error) {
	if err := m.check(field, kind, old); err != nil {
		return "", err
	}
	return m.ID(old), nil
}

// User maps a reference to an account of the file. One the file names
// before the account's record (an agent's boss) stays as it is until the
// record is read, and ImportRepointUser follows it then.
func (m *idMap) User(field, old string) (string, error) {
	if err := m.check(field, "user", old); err != nil {
		return "", err
	}
	if now, ok := m.m[old]; ok {
		return now, nil
	}
	return old, nil
}

// check refuses a reference to a row of the file of another kind, and
// leaves one to a row not read yet to unresolved.
func (m *idMap) check(field, kind, old string) error {
	r := importRef{line: m.at.Line, kind: m.at.Kind, field: field, want: kind, id: old}
	if have, ok := m.rows[old]; !ok {
		m.later = append(m.later, r)
	} else if kind != "" && have != kind {
		return r.err(have)
	}
	return nil
}

// About maps an id that need not be a row of the file.
func (m *idMap) About(old string) string {
	if _, ok := m.rows[old]; ok || m.keep || m.fresh {
		return m.ID(old)
	}
	if now, ok := m.m[old]; ok {
		return now
	}
	now := newID()
	m.m[old] = now
	m.changed = true
	return now
}

// unresolved refuses the first reference to a row the file did not hold
// or held of another kind.
func (m *idMap) unresolved() error {
	for _, r := range m.later {
		if have, ok := m.rows[r.id]; !ok || (r.want != "" && have != r.want) {
			return atLine(r.line, r.err(have))
		}
	}
	return nil
}

// OwnID maps an id nothing refers to, without remembering it.
func (m *idMap) OwnID(old string) string {
	if !m.fresh {
		return old
	}
	return newID()
}

// JSON replaces every id the map knows in text: ids are UUIDs, which no
// other text a document holds can be mistaken for.
func (m *idMap) JSON(text string) string {
	if !m.changed || !strings.Contains(text, "-") {
		return text
	}
	var b strings.Builder
	rest := text
	for {
		i := strings.IndexByte(rest, '"')
		if i < 0 || len(rest) < i+38 {
			break
		}
		cand := rest[i+1 : i+37]
		if rest[i+37] == '"' {
			if now, ok := m.m[cand]; ok {
				b.WriteString(rest[:i+1])
				b.WriteString(now)
				rest = rest[i+37:]
				continue
			}
		}
		b.WriteString(rest[:i+1])
		rest = rest[i+1:]
	}
	if b.Len() == 0 {
		return text
	}
	b.WriteString(rest)
	return b.String()
}

// FeedPrefix keeps a feed's prefix, or gives it a new one when ids are new.
func (m *idMap) FeedPrefix(old string) string {
	if !m.fresh {
		return old
	}
	p, _, _ := newSecret()
	return p
}

// UnknownSecretHash hashes a secret that is made and forgotten at once.
func (m *idMap) UnknownSecretHash() []byte {
	var b [32]byte
	_, _ = rand.Read(b[:])
	sum := sha256.Sum256(b[:])
	return sum[:]
}
