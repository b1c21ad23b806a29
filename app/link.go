package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Link is one stored typed link from a source item to a target item.
type Link struct {
	ID          string
	WorkspaceID string
	Type        LinkType
	SourceType  string
	SourceID    string
	TargetType  string
	TargetID    string
	CreatedBy   string
	CreatedAt   time.Time
}

// LinkView is a link seen from one of its ends: the direction and label
// are oriented for that end, and Other is the far end.
type LinkView struct {
	Link
	Direction string
	Label     string
	Other     LinkEnd
}

// LinkEnd is the far end of a link: a task or a document, read for the caller.
type LinkEnd struct {
	EntityType string // task or document
	Task       Task
	Document   Document
}

// Ref is the far end's ref.
func (e LinkEnd) Ref() int64 {
	if e.EntityType == "document" {
		return e.Document.Ref
	}
	return e.Task.Ref
}

type linkTx interface {
	InsertLink(ctx context.Context, l *Link) error
	// InsertLinks stores links in one statement, in the order given.
	InsertLinks(ctx context.Context, ls []Link) error
	LinkByID(ctx context.Context, id string) (Link, error)
	DeleteLink(ctx context.Context, id string) error
	// LinksOf lists every link touching an item.
	LinksOf(ctx context.Context, itemID string) ([]Link, error)
	// LinksAmong lists the links whose both ends are among ids.
	LinksAmong(ctx context.Context, ids []string) ([]Link, error)
}

// LinkRequest is one link from an item: to add to it (POST .../links), or
// to file a new document with.
type LinkRequest struct {
	Direction  string
	LinkType   string
	Target     FlexRef
	TargetType string
}

// Set is the request as a LinkSet from the item of kind entity at idOrRef.
func (in LinkRequest) Set(entity, idOrRef string) LinkSet {
	return LinkSet{Entity: entity, Refs: []string{idOrRef}, Direction: in.Direction, LinkType: in.LinkType,
		Others: []string{string(in.Target)}, OtherType: in.TargetType}
}

// LinkSet asks for a link of one type from every item in Refs (of kind
// Entity) to every item in Others (of kind OtherType): POST .../links sends
// one of each, the MCP tool service_link either as an array. At most
// max_links_per_request pairs; all of them are made or none.
type LinkSet struct {
	Entity    string
	Refs      []string
	Direction string
	LinkType  string
	Others    []string
	OtherType string
}

func (s *Service) validateLinkSet(in *LinkSet) error {
	if in.Direction == "" {
		in.Direction = "outgoing"
	}
	if in.OtherType == "" {
		in.OtherType = "task"
	}
	var errs []error
	if in.Direction != "outgoing" && in.Direction != "incoming" {
		errs = append(errs, Invalidf("body.direction", "direction is outgoing or incoming"))
	}
	if in.LinkType == "" {
		errs = append(errs, Invalidf("body.link_type", "link_type is required"))
	}
	if len(in.Others) == 0 || slices.Contains(in.Others, "") {
		errs = append(errs, Invalidf("body.target", "target is required: a ref or an id"))
	}
	for _, o := range in.Others {
		if o != "" {
			errs = append(errs, CheckRef("body.target", o))
		}
	}
	if !has(LinkableTypes, in.OtherType) {
		errs = append(errs, Invalidf("body.target_type", "target_type is one of %s", joinWords(LinkableTypes)))
	}
	if n := len(in.Refs) * len(in.Others); n > s.limits.MaxLinksPerRequest {
		return FieldErrorf(CodeOverLimit, "body.target", "at most %d links in one request (max_links_per_request); this asks for %d",
			s.limits.MaxLinksPerRequest, n)
	}
	return joinErrors(errs...)
}

// orient shows a stored link from the end with id self.
func orient(l Link, self string) (direction, label, other string) {
	if l.SourceID == self {
		return "outgoing", l.Type.Title, l.TargetID
	}
	return "incoming", l.Type.InverseTitle, l.SourceID
}

// linkSelf is the item a link route is addressed to.
type linkSelf struct {
	sc       *scope
	Type     string
	ID       string
	Ref      int64
	Title    string
	ParentID string
}

// withLinked makes a transaction body that finds the item a read of its
// links, backlinks or graph names first (linkedItem, not for writing).
func withLinked(ctx context.Context, a Actor, workspace, entity, idOrRef string, fn func(tx Tx, self linkSelf) error) func(Tx) error {
	return func(tx Tx) error {
		self, err := linkedItem(ctx, tx, a, workspace, entity, idOrRef, false)
		if err != nil {
			return err
		}
		return fn(tx, self)
	}
}

// linkedItem finds the live item a link route names, checking it may be
// changed when write is set.
func linkedItem(ctx context.Context, tx Tx, a Actor, workspace, entity, idOrRef string, write bool) (linkSelf, error) {
	it, err := addressedItem(ctx, tx, a, workspace, entity, idOrRef)
	if err != nil {
		return linkSelf{}, err
	}
	if write {
		if err := it.node.requireItemWrite(); err != nil {
			return linkSelf{}, err
		}
	}
	return linkSelf{sc: it.sc, Type: it.Type, ID: it.ID, Ref: *it.Ref, Title: it.Title, ParentID: it.ParentID}, nil
}

// record records a link event in the history of the item addressed.
func (ls linkSelf) record(ctx context.Context, tx Tx, a Actor, action, linkID string, changes map[string]any) error {
	e := ls.event(tx, a, action, linkID, changes)
	return tx.InsertEvent(ctx, &e)
}

// event is a link event in the history of the item addressed, to record.
func (ls linkSelf) event(tx Tx, a Actor, action, linkID string, changes map[string]any) Event {
	ref := ls.Ref
	return stamp(tx, a, Event{WorkspaceID: ls.sc.ws.Workspace.ID, EntityType: ls.Type, EntityID: ls.ID, Action: action,
		ItemRef: &ref, ItemTitle: ls.Title, SubjectType: "link", SubjectID: linkID, Changes: changes})
}

// ItemLinks lists every link touching a task or document, labelled from
// its point of view. A link whose far end the caller may not see is left
// out entirely.
func (s *Service) ItemLinks(ctx context.Context, a Actor, workspace, entity, idOrRef string) ([]LinkView, error) {
	out := []LinkView{}
	err := s.store.View(ctx, withLinked(ctx, a, workspace, entity, idOrRef, func(tx Tx, self linkSelf) (err error) {
		out, err = linkViews(ctx, tx, self.sc, self.ID)
		return err
	}))
	return out, err
}

func linkViews(ctx context.Context, tx Tx, sc *scope, self string) ([]LinkView, error) {
	ls, err := tx.LinksOf(ctx, self)
	if err != nil {
		return nil, err
	}
	var tasks, docs []string
	for _, l := range ls {
		if id, typ := farEnd(l, self); typ == "document" {
			docs = append(docs, id)
		} else {
			tasks = append(tasks, id)
		}
	}
	ends, err := linkEnds(ctx, tx, sc, tasks, docs)
	if err != nil {
		return nil, err
	}
	out := []LinkView{}
	for _, l := range ls {
		dir, label, o := orient(l, self)
		if end, ok := ends[o]; ok {
			out = append(out, LinkView{Link: l, Direction: dir, Label: label, Other: end})
		}
	}
	return out, nil
}

// linkEnds reads the tasks and documents named, as link ends, in one query
// for each kind; the ones the reader may not see, and trashed ones, are
// simply absent from the answer.
func linkEnds(ctx context.Context, tx Tx, sc *scope, tasks, docs []string) (map[string]LinkEnd, error) {
	ends := map[string]LinkEnd{}
	if tasks != nil {
		ts, err := sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: tasks, Now: tx.Now()}))
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			ends[t.ID] = LinkEnd{EntityType: "task", Task: t}
		}
	}
	if docs != nil {
		ds, err := sc.documents(ctx, tx, DocumentQuery{IDs: docs})
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			ends[d.ID] = LinkEnd{EntityType: "document", Document: d}
		}
	}
	return ends, nil
}

// farEnd is the id and kind of the end of l that is not self.
func farEnd(l Link, self string) (string, string) {
	if l.SourceID == self {
		return l.TargetID, l.TargetType
	}
	return l.SourceID, l.SourceType
}

// AddLinks links every item of in.Refs to every item of in.Others and
// returns the new links, each seen from its item in Refs. The caller must
// be able to change each item in Refs and see each other end; one it
// cannot see answers like one that does not exist.
func (s *Service) AddLinks(ctx context.Context, a Actor, workspace string, in LinkSet) ([]LinkView, error) {
	if err := s.validateLinkSet(&in); err != nil {
		return nil, err
	}
	var out []LinkView
	err := s.store.Update(ctx, func(tx Tx) error {
		for _, ref := range in.Refs {
			self, err := linkedItem(ctx, tx, a, workspace, in.Entity, ref, true)
			if err != nil {
				return err
			}
			made, err := addLinks(ctx, tx, a, self, in)
			if err != nil {
				return err
			}
			out = append(out, made...)
		}
		return nil
	})
	return out, err
}

// addLinks links one item to every item of in.Others.
func addLinks(ctx context.Context, tx Tx, a Actor, self linkSelf, in LinkSet) ([]LinkView, error) {
	lt, err := linkTypeByKey(ctx, tx, self.sc.ws.Workspace.ID, in.LinkType, "body.link_type")
	if err != nil {
		return nil, err
	}
	find := findTaskIn
	if in.OtherType == "document" {
		find = findDocumentIn
	}
	batch, err := newLinkBatch(ctx, tx, self)
	if err != nil {
		return nil, err
	}
	for _, target := range in.Others {
		other, err := find(ctx, tx, self.sc, target)
		if err != nil {
			return nil, bodyRef(err, "body.target", fmt.Sprintf("no such %s: %s", in.OtherType, target))
		}
		if other.ID == self.ID {
			return nil, Invalidf("body.target", "an item cannot be linked to itself")
		}
		if _, err := batch.add(tx, a, lt, in.Direction, other, in.OtherType); err != nil {
			return nil, err
		}
	}
	return batch.stored(ctx, tx)
}

// insertLink joins self to other with a link of type lt, pointing the way
// direction says, and records it in self's history.
func insertLink(ctx context.Context, tx Tx, a Actor, self linkSelf, lt LinkType, direction string, other ItemLocation, otherType string) (Link, error) {
	b, err := newLinkBatch(ctx, tx, self)
	if err != nil {
		return Link{}, err
	}
	l, err := b.add(tx, a, lt, direction, other, otherType)
	if err != nil {
		return Link{}, err
	}
	return l, b.store(ctx, tx)
}

// linkBatch gathers the links one request makes from self, checking each
// as it is added against the links self has and those added before it, and
// stores them and their events in two statements however many there are:
// the refusals, links and events are those of making them one by one.
type linkBatch struct {
	self   linkSelf
	had    []Link
	links  []Link
	events []Event
}

// newLinkBatch starts a batch of links from self.
func newLinkBatch(ctx context.Context, tx Tx, self linkSelf) (*linkBatch, error) {
	had, err := tx.LinksOf(ctx, self.ID)
	return &linkBatch{self: self, had: had}, err
}

// add joins self to other with a link of type lt, pointing the way
// direction says, to be stored with its event in self's history.
func (b *linkBatch) add(tx Tx, a Actor, lt LinkType, direction string, other ItemLocation, otherType string) (Link, error) {
	self := b.self
	l := Link{ID: newID(), WorkspaceID: self.sc.ws.Workspace.ID, Type: lt, SourceType: self.Type, SourceID: self.ID,
		TargetType: otherType, TargetID: other.ID, CreatedBy: a.User.ID, CreatedAt: tx.Now()}
	if direction == "incoming" {
		l.SourceType, l.SourceID, l.TargetType, l.TargetID = l.TargetType, l.TargetID, l.SourceType, l.SourceID
	}
	if linked(l, b.had) || linked(l, b.links) {
		return Link{}, Errorf(CodeConflict, "these items are already linked with %q", l.Type.Key)
	}
	b.links = append(b.links, l)
	b.events = append(b.events, self.event(tx, a, "link.created", l.ID, map[string]any{"link_type": lt.Key,
		"direction": direction, "other": other.Ref, "other_type": otherType}))
	return l, nil
}

// stored stores the links added and their events, and reads the links
// back seen from self, in the order added.
func (b *linkBatch) stored(ctx context.Context, tx Tx) ([]LinkView, error) {
	if err := b.store(ctx, tx); err != nil {
		return nil, err
	}
	views, err := linkViews(ctx, tx, b.self.sc, b.self.ID)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]LinkView, len(views))
	for _, v := range views {
		byID[v.ID] = v
	}
	out := make([]LinkView, len(b.links))
	for i, l := range b.links {
		out[i] = byID[l.ID]
	}
	return out, nil
}

// store writes the links added and their events.
func (b *linkBatch) store(ctx context.Context, tx Tx) error {
	if len(b.links) == 0 {
		return nil
	}
	if err := tx.InsertLinks(ctx, b.links); err != nil {
		return err
	}
	return tx.InsertEvents(ctx, b.events)
}

// deleteLink removes the link v shows from self and records it.
func deleteLink(ctx context.Context, tx Tx, a Actor, self linkSelf, v LinkView) error {
	if err := tx.DeleteLink(ctx, v.ID); err != nil {
		return err
	}
	return self.record(ctx, tx, a, "link.deleted", v.ID, map[string]any{"link_type": v.Type.Key, "other": v.Other.Ref(),
		"other_type": v.Other.EntityType})
}

// linked reports whether l is among ls already: the same ends, or, for a
// symmetric type, the same ends either way round.
func linked(l Link, ls []Link) bool {
	for _, x := range ls {
		if x.Type.ID != l.Type.ID {
			continue
		}
		same := x.SourceID == l.SourceID && x.TargetID == l.TargetID
		mirrored := x.SourceID == l.TargetID && x.TargetID == l.SourceID
		if same || (mirrored && l.Type.IsSymmetric) {
			return true
		}
	}
	return false
}

// RemoveLink deletes a link touching a task or document.
func (s *Service) RemoveLink(ctx context.Context, a Actor, workspace, entity, idOrRef, linkID string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		self, err := linkedItem(ctx, tx, a, workspace, entity, idOrRef, true)
		if err != nil {
			return err
		}
		views, err := linkViews(ctx, tx, self.sc, self.ID)
		if err != nil {
			return err
		}
		for _, v := range views {
			if v.ID != linkID {
				continue
			}
			return deleteLink(ctx, tx, a, self, v)
		}
		return NotFound("link")
	})
}

// checkFiledLink checks one link an item is to be filed with, at loc in
// the request: a link type, a target shaped like a ref or an id, a
// direction and, when given, the target's kind.
func checkFiledLink(loc string, l *LinkRequest) error {
	errs := []error{CheckRef(loc+".target", string(l.Target))}
	if strings.TrimSpace(l.LinkType) == "" {
		errs = append(errs, Invalidf(loc+".link_type", "link_type is required: a link type key (relates_to, documents, ...; GET /v1/meta lists them)"))
	}
	switch l.Direction {
	case "", "outgoing", "incoming":
	default:
		errs = append(errs, Invalidf(loc+".direction", "direction is outgoing or incoming"))
	}
	if l.TargetType != "" && !has(LinkableTypes, l.TargetType) {
		errs = append(errs, Invalidf(loc+".target_type", "target_type is one of %s", joinWords(LinkableTypes)))
	}
	return joinErrors(errs...)
}

// fileLinks makes the links a new item is filed with, from self, and
// returns them as seen from it, in the order asked. A target missing (or
// out of the caller's sight) is refused at its place in the request, like
// any other bad field; a target_type left out lets the ref say which kind
// of item it names, since tasks and documents share one ref counter.
func fileLinks(ctx context.Context, tx Tx, a Actor, self linkSelf, links []LinkRequest, loc string) ([]LinkView, error) {
	if len(links) == 0 {
		return nil, nil
	}
	batch, err := newLinkBatch(ctx, tx, self)
	if err != nil {
		return nil, err
	}
	for i, l := range links {
		at := loc + "." + strconv.Itoa(i)
		lt, err := linkTypeByKey(ctx, tx, self.sc.ws.Workspace.ID, l.LinkType, at+".link_type")
		if err != nil {
			return nil, err
		}
		target := strings.TrimPrefix(string(l.Target), "#")
		other, kind, err := linkTarget(ctx, tx, self.sc, target, l.TargetType, at+".target")
		if err != nil {
			return nil, err
		}
		if other.ID == self.ID {
			return nil, Invalidf(at+".target", "an item cannot be linked to itself")
		}
		dir := l.Direction
		if dir == "" {
			dir = "outgoing"
		}
		if _, err := batch.add(tx, a, lt, dir, other, kind); err != nil {
			return nil, err
		}
	}
	return batch.stored(ctx, tx)
}

// linkTarget finds the live item a filed link points at: of the kind
// named, or, with none named, the task or document the ref names. A target
// nobody may reach is refused at loc.
func linkTarget(ctx context.Context, tx Tx, sc *scope, target, kind, loc string) (ItemLocation, string, error) {
	if kind != "document" {
		found, err := findTaskIn(ctx, tx, sc, target)
		if kind == "task" || CodeOf(err) != CodeNotFound {
			return found, "task", bodyRef(err, loc, "no such task: "+target)
		}
	}
	found, err := findDocumentIn(ctx, tx, sc, target)
	what := "document"
	if kind == "" {
		what = "task or document"
	}
	return found, "document", bodyRef(err, loc, "no such "+what+": "+target)
}
