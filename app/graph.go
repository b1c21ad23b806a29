package app

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Backlink is an item whose text mentions the item asked about. A mention
// in a comment resolves to the item the comment is on, and Via says so.
type Backlink struct {
	CreatedAt time.Time
	Kind      string // task or document
	ItemID    string
	Ref       int64
	Title     string
	Via       string // "comment", or empty when the item's own text holds the mention
	ProjectID string
}

// Governing is a document in force that binds an item through a link of
// the governing category.
type Governing struct {
	Document LinkEnd
	LinkType string
}

// Proposal is a link nobody made yet that the evidence suggests: a
// governing document and the item, joined by no link of any kind.
type Proposal struct {
	Because   string
	Direction string
	Label     string
	LinkType  string
	Other     LinkEnd
}

// Beneath is one item of a tree walk: what follows the item asked about
// through sequencing links, in reading order.
type Beneath struct {
	Depth   int
	Item    LinkEnd
	Stopped string // "again", "deeper" or empty
}

type graphTx interface {
	// Mentioning lists the live tasks and documents whose text, or a live
	// comment on which, mentions an item. Mentions from comments on
	// projects are left out: a project has no ref to report.
	Mentioning(ctx context.Context, targetID string) ([]Backlink, error)
	// LinksFrom lists the links of one category leaving any of ids.
	LinksFrom(ctx context.Context, ids []string, category string) ([]Link, error)
	// MentionedBy lists the live documents an item's text, or a live comment
	// on it, mentions.
	MentionedBy(ctx context.Context, itemID string) ([]string, error)
	// LinkedTo lists the ids of every item joined to id by a link of any kind.
	LinkedTo(ctx context.Context, id string) ([]string, error)
	// SharedTagDocuments lists the live documents sharing a tag with an
	// item, with the shared tag names.
	SharedTagDocuments(ctx context.Context, itemID string) (map[string][]string, error)
}

// ItemBacklinks lists what mentions a task or document, oldest first.
// Mentions from projects the caller cannot see are left out.
func (s *Service) ItemBacklinks(ctx context.Context, a Actor, workspace, entity, idOrRef string) ([]Backlink, error) {
	out := []Backlink{}
	err := s.store.View(ctx, withLinked(ctx, a, workspace, entity, idOrRef, func(tx Tx, self linkSelf) error {
		bs, err := tx.Mentioning(ctx, self.ID)
		for _, b := range bs {
			if self.sc.byID[b.ProjectID].canReadItems() {
				out = append(out, b)
			}
		}
		return err
	}))
	return out, err
}

// governs reports which end of a governing-category link binds the other:
// "X derives from D" makes the target D bind X; every other governing type
// ("D documents X") reads from the source.
func governs(l Link) (governor, governed string) {
	if l.Type.Key == "derives_from" {
		return l.TargetID, l.SourceID
	}
	return l.SourceID, l.TargetID
}

// ItemGoverning lists the documents in force that bind a task or document,
// in ref order. Only typed links count; titles and refs are reported, never
// bodies.
func (s *Service) ItemGoverning(ctx context.Context, a Actor, workspace, entity, idOrRef string) ([]Governing, error) {
	out := []Governing{}
	err := s.store.View(ctx, withLinked(ctx, a, workspace, entity, idOrRef, func(tx Tx, self linkSelf) (err error) {
		out, err = governingOf(ctx, tx, self)
		return err
	}))
	return out, err
}

// governingOf lists the documents in force that bind self, in ref order.
func governingOf(ctx context.Context, tx Tx, self linkSelf) ([]Governing, error) {
	out := []Governing{}
	ls, err := tx.LinksOf(ctx, self.ID)
	if err != nil {
		return nil, err
	}
	via := map[string]string{}
	var docs []string
	for _, l := range ls {
		gov, bound := governs(l)
		if l.Type.Category != LinkGoverning || bound != self.ID || gov == self.ID {
			continue
		}
		if other, typ := farEnd(l, self.ID); typ == "document" && via[other] == "" {
			via[other] = l.Type.Key
			docs = append(docs, other)
		}
	}
	ends, err := linkEnds(ctx, tx, self.sc, nil, docs)
	if err != nil {
		return nil, err
	}
	for _, id := range docs {
		if e, ok := ends[id]; ok && e.Document.InForce() {
			out = append(out, Governing{Document: e, LinkType: via[id]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Document.Ref() < out[j].Document.Ref() })
	return out, nil
}

// maxProposals bounds the proposals for one item: they are suggestions to
// read, so the strongest few are worth more than all of them.
const maxProposals = 20

// ItemProposedLinks suggests governing documents for an item: documents in
// force whose type is in the governing category (decision, spec, design,
// dead end), joined to the item by no link of any kind, each with the
// evidence. Evidence, strongest first: a mention either way (in the text of
// either, or a comment on either), the document governing the item's
// parent task or document, and tags the two share. It writes nothing.
func (s *Service) ItemProposedLinks(ctx context.Context, a Actor, workspace, entity, idOrRef string) ([]Proposal, error) {
	out := []Proposal{}
	err := s.store.View(ctx, withLinked(ctx, a, workspace, entity, idOrRef, func(tx Tx, self linkSelf) error {
		ev, err := proposalEvidence(ctx, tx, self)
		if err != nil {
			return err
		}
		linked, err := tx.LinkedTo(ctx, self.ID)
		if err != nil {
			return err
		}
		var docs []string
		for id := range ev.because {
			if id != self.ID && !slices.Contains(linked, id) {
				docs = append(docs, id)
			}
		}
		ends, err := linkEnds(ctx, tx, self.sc, nil, docs)
		if err != nil {
			return err
		}
		lt, err := linkTypeByKey(ctx, tx, self.sc.ws.Workspace.ID, "documents", "")
		if err != nil {
			return err
		}
		for _, id := range docs {
			e, ok := ends[id]
			if !ok || !e.Document.InForce() || e.Document.Type.Category != LinkGoverning {
				continue
			}
			out = append(out, Proposal{Because: strings.Join(ev.because[id], "; "), Direction: "incoming",
				Label: lt.InverseTitle, LinkType: lt.Key, Other: e})
		}
		sort.SliceStable(out, func(i, j int) bool {
			wi, wj := ev.weight[out[i].Other.Document.ID], ev.weight[out[j].Other.Document.ID]
			if wi != wj {
				return wi > wj
			}
			return out[i].Other.Ref() < out[j].Other.Ref()
		})
		if len(out) > maxProposals {
			out = out[:maxProposals]
		}
		return nil
	}))
	return out, err
}

// evidence gathers, per candidate document, what suggests it and how strongly.
type evidence struct {
	because map[string][]string
	weight  map[string]int
}

func (ev *evidence) add(id, why string, weight int) {
	ev.because[id] = append(ev.because[id], why)
	ev.weight[id] += weight
}

func proposalEvidence(ctx context.Context, tx Tx, self linkSelf) (evidence, error) {
	ev := evidence{because: map[string][]string{}, weight: map[string]int{}}
	ms, err := tx.Mentioning(ctx, self.ID)
	if err != nil {
		return ev, err
	}
	for _, m := range ms {
		if m.Kind == "document" {
			where := "its text"
			if m.Via != "" {
				where = "a comment on it"
			}
			ev.add(m.ItemID, fmt.Sprintf("#%d mentions this %s in %s", m.Ref, self.Type, where), 3)
		}
	}
	mentioned, err := tx.MentionedBy(ctx, self.ID)
	if err != nil {
		return ev, err
	}
	for _, id := range mentioned {
		ev.add(id, "this "+self.Type+" mentions it", 3)
	}
	if self.ParentID != "" {
		ls, err := tx.LinksOf(ctx, self.ParentID)
		if err != nil {
			return ev, err
		}
		for _, l := range ls {
			if gov, bound := governs(l); l.Type.Category == LinkGoverning && bound == self.ParentID {
				ev.add(gov, fmt.Sprintf("it binds the parent %s (%s)", self.Type, l.Type.Key), 2)
			}
		}
	}
	shared, err := tx.SharedTagDocuments(ctx, self.ID)
	if err != nil {
		return ev, err
	}
	for id, tags := range shared {
		ev.add(id, "shares the tag"+plural(len(tags))+" #"+strings.Join(tags, ", #"), len(tags))
	}
	return ev, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ItemTree walks what follows an item through sequencing links ("blocks",
// "precedes" and any other type of that category), depth first in reading
// order: each item's followers by ref. An item reached a second time is
// drawn again with Stopped "again" and not walked; an item at the last
// level that has followers is drawn with Stopped "deeper". Items the
// caller cannot see, and trashed ones, are neither drawn nor walked
// through. depth 0 takes the instance default; more than the instance
// allows is capped.
func (s *Service) ItemTree(ctx context.Context, a Actor, workspace, entity, idOrRef string, depth int) ([]Beneath, error) {
	switch {
	case depth == 0:
		depth = s.limits.DefaultTreeDepth
	case depth < 0:
		return nil, Invalidf("query.depth", "depth is at least 1")
	case depth > s.limits.MaxTreeDepth:
		depth = s.limits.MaxTreeDepth
	}
	out := []Beneath{}
	err := s.viewExpensive(ctx, withLinked(ctx, a, workspace, entity, idOrRef, func(tx Tx, self linkSelf) (err error) {
		out, err = treeOf(ctx, tx, self, depth)
		return err
	}))
	return out, err
}

// treeOf walks and draws what follows self, depth levels down.
func treeOf(ctx context.Context, tx Tx, self linkSelf, depth int) ([]Beneath, error) {
	w := treeWalk{next: map[string][]string{}, kind: map[string]string{}}
	if err := w.load(ctx, tx, self, depth); err != nil {
		return nil, err
	}
	var tasks, docs []string
	for id, k := range w.kind {
		if k == "document" {
			docs = append(docs, id)
		} else {
			tasks = append(tasks, id)
		}
	}
	ends, err := linkEnds(ctx, tx, self.sc, tasks, docs)
	if err != nil {
		return nil, err
	}
	return w.draw(self.ID, ends, depth), nil
}

// treeWalk holds the sequencing links reachable from the root, read one
// level per query so a walk costs at most depth+1 statements.
type treeWalk struct {
	next map[string][]string // item → followers, in link order
	kind map[string]string   // item → task or document
}

func (w *treeWalk) load(ctx context.Context, tx Tx, self linkSelf, depth int) error {
	frontier := []string{self.ID}
	seen := map[string]bool{self.ID: true}
	// One level more than is drawn tells whether the last level has followers.
	for level := 0; level <= depth && len(frontier) > 0; level++ {
		ls, err := tx.LinksFrom(ctx, frontier, LinkSequencing)
		if err != nil {
			return err
		}
		frontier = nil
		for _, l := range ls {
			w.next[l.SourceID] = append(w.next[l.SourceID], l.TargetID)
			w.kind[l.TargetID] = l.TargetType
			if !seen[l.TargetID] {
				seen[l.TargetID] = true
				frontier = append(frontier, l.TargetID)
			}
		}
	}
	return nil
}

// draw lays the walk out depth first. Only items in ends (those the reader
// may see, live) are drawn or walked through.
func (w *treeWalk) draw(root string, ends map[string]LinkEnd, depth int) []Beneath {
	out := []Beneath{}
	drawn := map[string]bool{root: true}
	followers := func(id string) []string {
		var fs []string
		for _, f := range w.next[id] {
			if _, ok := ends[f]; ok && !slices.Contains(fs, f) {
				fs = append(fs, f)
			}
		}
		sort.Slice(fs, func(i, j int) bool { return ends[fs[i]].Ref() < ends[fs[j]].Ref() })
		return fs
	}
	var walk func(id string, level int)
	walk = func(id string, level int) {
		for _, f := range followers(id) {
			b := Beneath{Depth: level, Item: ends[f]}
			switch {
			case drawn[f]:
				b.Stopped = "again"
				out = append(out, b)
				continue
			case level == depth && len(followers(f)) > 0:
				b.Stopped = "deeper"
			}
			drawn[f] = true
			out = append(out, b)
			if level < depth {
				walk(f, level+1)
			}
		}
	}
	walk(root, 1)
	return out
}
