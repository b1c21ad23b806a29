package app

import (
	"context"
	"strconv"
	"strings"
	"time"

	"tend/app/background"
)

// Document is a note, spec, design, decision, finding or dead end, filed in
// a project and perhaps nested under another document. It is never done and
// nobody works on it: it has no due date, estimate or assignee.
type Document struct {
	Seq              int64
	ID               string
	WorkspaceID      string
	Ref              int64
	ProjectID        string
	ParentID         string
	Title            string
	Body             string // "" is no body
	TypeID           string
	StatusID         string
	OwnerID          string
	RevisionCount    int
	RevisedAt        *time.Time
	RevisedBy        string
	ArchivedAt       *time.Time
	CreatedBy        string
	UpdatedBy        string
	CreatedAt        time.Time
	UpdatedAt        time.Time
	ContentUpdatedAt time.Time
	DeletedAt        *time.Time
	Version          int
	Tags             []string

	// Resolved on read, for this reader.
	Type          ItemType
	Status        Status
	ParentRef     *int64
	ParentTitle   string
	SubDocuments  int
	RevisedByName string
	CreatorName   string
	ProjectKey    string
	ProjectPath   string
	ProjectColour string
	WorkspaceSlug string
	// Revisions is resolved on a single item only; nil in listings.
	Revisions *Revisions
	// Relevance is the text-match score when a listing searched; nil otherwise.
	Relevance *float64
	// Links are the links CreateDocument filed the document with, seen from
	// it; nil on every other read.
	Links []LinkView
}

// Revisions counts replacements of a document's non-empty body and names the
// last one. It is a count and a name, never a diff.
type Revisions struct {
	Count  int
	LastAt time.Time
	LastBy string
}

// InForce reports whether the document binds: its status is in the
// in_progress category.
func (d Document) InForce() bool { return d.Status.Category == CategoryInProgress }

// resolveRevisions fills Revisions for a single item. A document whose body
// was never replaced reports count 0 as of its creation, by its creator.
func (d *Document) resolveRevisions() {
	r := Revisions{Count: d.RevisionCount, LastAt: d.CreatedAt, LastBy: d.CreatorName}
	if d.RevisionCount > 0 && d.RevisedAt != nil {
		r.LastAt, r.LastBy = *d.RevisedAt, d.RevisedByName
	}
	d.Revisions = &r
}

// ItemLocation is where a task or document lives: enough to check who may see it.
type ItemLocation = TaskLocation

type documentTx interface {
	InsertDocument(ctx context.Context, d *Document) error
	UpdateDocument(ctx context.Context, d *Document) error
	SetDocumentTags(ctx context.Context, documentID string, tagIDs []string) error
	// DocumentLocator finds where a document lives, by id or by ref in a workspace.
	DocumentLocator(ctx context.Context, workspaceID, idOrRef string) (ItemLocation, error)
	// Documents reads documents, filtered through the readable projects the query names.
	Documents(ctx context.Context, q DocumentQuery) ([]Document, error)
	CountDocuments(ctx context.Context, q DocumentQuery) (int, error)
	// DocumentSubtree lists a document's id and all its descendants' ids.
	DocumentSubtree(ctx context.Context, id string) ([]string, error)
	// MoveDocuments refiles documents into a project.
	MoveDocuments(ctx context.Context, ids []string, projectID string, now time.Time) error
	// SetDocumentsDeleted is SetTasksDeleted for documents.
	SetDocumentsDeleted(ctx context.Context, ids []string, from, to *time.Time, now time.Time) ([]string, error)
}

// refuseTaskFields refuses each field of a task a request for a document
// named: a 422 that says why, rather than a bare "unknown field".
func refuseTaskFields(names []string) []error {
	var errs []error
	for _, name := range names {
		errs = append(errs, Invalidf("body."+name, "a document has no %s: it is never done and nobody works on it", name))
	}
	return errs
}

// DocumentCreate is a new document. The JSON API reads it from
// wire.DocumentCreate (POST /v1/documents).
type DocumentCreate struct {
	Title   string
	Body    *string
	Type    string
	Status  string
	Project string
	Parent  FlexRef
	Tags    []string
	// Links file the document already linked: each a LinkRequest from the
	// new document, made in the same transaction (all of them or no document).
	Links []LinkRequest
	// TaskFields are the fields of a task the request named (due_at,
	// assignee, …), which a document has not: each is refused.
	TaskFields []string
}

// DocumentUpdate is a change to a document: unset fields stay, null ones
// clear where a field can be empty. The JSON API reads it from
// wire.DocumentUpdate (PATCH /v1/documents/{id_or_ref}).
type DocumentUpdate struct {
	Title           Patch[string]
	Body            Patch[string]
	Type            Patch[string]
	Status          Patch[string]
	Project         Patch[string]
	Parent          Patch[FlexRef]
	Tags            Patch[[]string]
	ExpectedVersion *int
	// TaskFields are as DocumentCreate's.
	TaskFields []string
}

func (s *Service) checkBody(loc, body string) error {
	if len(body) > s.limits.MaxBodyBytes {
		return Invalidf(loc, "at most %d bytes (got %d)", s.limits.MaxBodyBytes, len(body))
	}
	return s.checkMentions(loc, body)
}

// normalTags checks and normalises tag names in place, dropping repeats
// that differ only in case. More than max_tags_per_item names are refused
// before any is looked at.
func (s *Service) normalTags(loc string, tags []string) ([]string, []error) {
	if err := checkCount(loc, len(tags), s.limits.MaxTagsPerItem, "max_tags_per_item"); err != nil {
		return tags, []error{err}
	}
	var errs []error
	for i, tg := range tags {
		n, err := s.normalTag(loc, tg)
		errs = append(errs, err)
		tags[i] = n
	}
	return dedupeFold(tags), errs
}

func (s *Service) validateDocumentCreate(in *DocumentCreate) error {
	errs := append(refuseTaskFields(in.TaskFields), s.checkTitle("body.title", in.Title))
	if in.Body != nil {
		errs = append(errs, s.checkBody("body.body", *in.Body))
	}
	var tagErrs []error
	in.Tags, tagErrs = s.normalTags("body.tags", in.Tags)
	errs = append(errs, tagErrs...)
	if err := checkCount("body.links", len(in.Links), s.limits.MaxLinksPerRequest, "max_links_per_request"); err != nil {
		return err
	}
	for i := range in.Links {
		errs = append(errs, checkFiledLink("body.links."+strconv.Itoa(i), &in.Links[i]))
	}
	return joinErrors(errs...)
}

func (s *Service) validateDocumentUpdate(in *DocumentUpdate) error {
	errs := refuseTaskFields(in.TaskFields)
	if in.Title.Set {
		errs = append(errs, s.checkTitle("body.title", in.Title.Value))
	}
	if in.Body.Set {
		errs = append(errs, s.checkBody("body.body", in.Body.Value))
	}
	for _, f := range []struct {
		loc  string
		null bool
	}{{"body.title", in.Title.Null}, {"body.type", in.Type.Null}, {"body.status", in.Status.Null}, {"body.project", in.Project.Null}} {
		if f.null {
			errs = append(errs, Invalidf(f.loc, "cannot be cleared"))
		}
	}
	if in.Tags.Set {
		var tagErrs []error
		in.Tags.Value, tagErrs = s.normalTags("body.tags", in.Tags.Value)
		errs = append(errs, tagErrs...)
	}
	return joinErrors(errs...)
}

// CreateDocument files a new document: in the project named, under the
// parent named (in the parent's project), or in the inbox. An omitted status
// puts it in force.
func (s *Service) CreateDocument(ctx context.Context, a Actor, workspace string, in DocumentCreate) (Document, error) {
	if err := s.validateDocumentCreate(&in); err != nil {
		return Document{}, err
	}
	title, body := strings.TrimSpace(in.Title), ""
	if in.Body != nil {
		body = *in.Body
	}
	// Up to max_body_bytes of text is scanned for mentions before the
	// transaction, so that other writers do not wait on it.
	mentions := mentionedRefs(title, body)
	var out Document
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		now := tx.Now()
		d := Document{ID: newID(), WorkspaceID: sc.ws.Workspace.ID, Title: title, Body: body, OwnerID: a.User.ID,
			CreatedBy: a.User.ID, UpdatedBy: a.User.ID, CreatedAt: now, UpdatedAt: now, ContentUpdatedAt: now, Version: 1}
		n, parent, err := placeItem(ctx, tx, sc, in.Project, string(in.Parent), "document", "sub-document", findDocumentIn)
		if err != nil {
			return err
		}
		d.ProjectID, d.ParentID = n.ID, parent.ID
		it, err := itemTypeFor(ctx, tx, d.WorkspaceID, "document", in.Type, "body.type")
		if err != nil {
			return err
		}
		d.TypeID = it.ID
		if err := setDocumentStatus(ctx, tx, &d, in.Status, nil); err != nil {
			return err
		}
		if d.Ref, err = tx.NextRef(ctx, d.WorkspaceID); err != nil {
			return err
		}
		if err := tx.InsertDocument(ctx, &d); err != nil {
			return err
		}
		if err := applyTags(ctx, tx, a, d.WorkspaceID, d.ProjectID, d.ID, in.Tags, tx.SetDocumentTags); err != nil {
			return err
		}
		if err := noteRefs(ctx, tx, mentionSource{WorkspaceID: d.WorkspaceID, Type: "document", ID: d.ID, Self: d.ID, New: true},
			mentions); err != nil {
			return err
		}
		ref := d.Ref
		if err := record(ctx, tx, a, Event{WorkspaceID: d.WorkspaceID, EntityType: "document", EntityID: d.ID, Action: "document.created",
			ItemRef: &ref, ItemTitle: d.Title, Changes: map[string]any{"title": d.Title, "size_bytes": len(d.Body)}}); err != nil {
			return err
		}
		self := linkSelf{sc: sc, Type: "document", ID: d.ID, Ref: d.Ref, Title: d.Title}
		links, err := fileLinks(ctx, tx, a, self, in.Links, "body.links")
		if err != nil {
			return err
		}
		out, err = readDocument(ctx, tx, sc, d.ID, false)
		out.Links = links
		return err
	}))
	if err == nil && len(body) > background.DocumentChunkBytes {
		s.kick() // the body is indexed in steps (app/background)
	}
	return out, err
}

// setDocumentStatus moves a document to a status by key ("" for the
// default, which is in force) and keeps archived_at in step with the done
// category. changes, when not nil, records the move.
func setDocumentStatus(ctx context.Context, tx Tx, d *Document, key string, changes map[string]any) error {
	st, err := statusFor(ctx, tx, d.WorkspaceID, "document", key, "body.status")
	if err != nil {
		return err
	}
	if st.ID == d.StatusID {
		return nil
	}
	if changes != nil {
		changes["status"] = map[string]any{"from": d.Status.Key, "to": st.Key}
	}
	switch {
	case st.Category == CategoryDone && d.ArchivedAt == nil:
		now := tx.Now()
		d.ArchivedAt = &now
	case st.Category != CategoryDone:
		d.ArchivedAt = nil
	}
	d.StatusID, d.Status = st.ID, st
	return nil
}

// findDocumentIn locates a live document the caller may read, by id or ref.
func findDocumentIn(ctx context.Context, tx Tx, sc *scope, idOrRef string) (ItemLocation, error) {
	return findItemIn(ctx, sc, idOrRef, "document", tx.DocumentLocator)
}

// readDocument reads one document (live, or trashed when trashed is set)
// resolved for the scope's reader, revisions included.
func readDocument(ctx context.Context, tx Tx, sc *scope, id string, trashed bool) (Document, error) {
	q := DocumentQuery{IDs: []string{id}}
	if trashed {
		yes := true
		q.Deleted = &yes
	}
	ds, err := sc.documents(ctx, tx, q)
	if err != nil {
		return Document{}, err
	}
	if len(ds) == 0 {
		return Document{}, NotFound("document")
	}
	ds[0].resolveRevisions()
	return ds[0], nil
}

func documentScope(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string) (*scope, error) {
	return itemScope(ctx, tx, a, workspace, idOrRef, "document", tx.DocumentLocator)
}

// DocumentGet returns one document by id or ref, revisions resolved.
func (s *Service) DocumentGet(ctx context.Context, a Actor, workspace, idOrRef string) (Document, error) {
	return itemGet(ctx, s, "document", idOrRef,
		func(tx Tx) (*scope, error) { return documentScope(ctx, tx, a, workspace, idOrRef) },
		func(tx Tx, sc *scope, ids []string, ref int64) ([]Document, error) {
			ds, err := sc.documents(ctx, tx, DocumentQuery{IDs: ids, Ref: ref})
			for i := range ds {
				ds[i].resolveRevisions()
			}
			return ds, err
		})
}

// documents reads documents through the store, filtered through the
// scope's readable projects, and fills in what only the scope knows.
func (sc *scope) documents(ctx context.Context, tx Tx, q DocumentQuery) ([]Document, error) {
	q.WorkspaceID, q.Readable = sc.ws.Workspace.ID, sc.readJSON
	ds, err := tx.Documents(ctx, q)
	for i := range ds {
		if n := sc.byID[ds[i].ProjectID]; n != nil {
			ds[i].ProjectKey, ds[i].ProjectPath, ds[i].ProjectColour = n.Key, n.Path, n.Colour
		}
		ds[i].WorkspaceSlug = sc.ws.Workspace.Slug
	}
	return ds, err
}

// writableDocument finds a live document the caller may change.
func writableDocument(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string) (*scope, Document, error) {
	return writableItem(ctx, tx, a, workspace, idOrRef, "document", tx.DocumentLocator,
		func(sc *scope, id string) (Document, error) { return readDocument(ctx, tx, sc, id, false) })
}

// saveDocument stores a changed document, bumps its version and records the event.
func saveDocument(ctx context.Context, tx Tx, a Actor, d *Document, action string, changes map[string]any) error {
	d.UpdatedAt, d.UpdatedBy, d.Version = tx.Now(), a.User.ID, d.Version+1
	if err := tx.UpdateDocument(ctx, d); err != nil {
		return err
	}
	ref := d.Ref
	return record(ctx, tx, a, Event{WorkspaceID: d.WorkspaceID, EntityType: "document", EntityID: d.ID, Action: action,
		ItemRef: &ref, ItemTitle: d.Title, Changes: changes})
}
