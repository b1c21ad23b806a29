package app

import (
	"context"
	"time"
)

// Status categories. Clients that must survive renames match on these.
const (
	CategoryTodo       = "todo"
	CategoryInProgress = "in_progress"
	CategoryDone       = "done"
	CategoryCancelled  = "cancelled"
)

// StatusCategories lists the categories in their natural order.
var StatusCategories = []string{CategoryTodo, CategoryInProgress, CategoryDone, CategoryCancelled}

// EntityTypes that carry statuses.
var EntityTypes = []string{"task", "project", "document"}

// LinkableTypes are the kinds of item a typed link may join.
var LinkableTypes = []string{"task", "document"}

// VocabEntry is what a status and an item type are alike: one entry of a
// workspace's vocabulary for one entity type, in its category, at its
// position, the entity type's default or not.
type VocabEntry struct {
	ID          string
	WorkspaceID string
	EntityType  string
	Key         string
	Label       string
	Category    string
	Position    int
	IsDefault   bool
}

// Status is one entry of a workspace's status vocabulary for one entity
// type, with when it was made and last changed.
type Status struct {
	VocabEntry
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ItemType is one kind of task or document.
type ItemType VocabEntry

// LinkType is one kind of typed link, named from its source end (Title) and
// its target end (InverseTitle).
type LinkType struct {
	ID           string
	WorkspaceID  string
	Key          string
	Title        string
	InverseTitle string
	IsSymmetric  bool
	Category     string
	CreatedAt    time.Time
}

// Link type categories. Only sequencing links are walked by the tree view;
// governing links are what makes a document bind an item.
const (
	LinkSequencing  = "sequencing"
	LinkAssociation = "association"
	LinkGoverning   = "governing"
	LinkProvenance  = "provenance"
)

// TagSummary is the tag vocabulary as GET /v1/meta reports it.
type TagSummary struct {
	Total   int
	Names   []string
	HasMore bool
}

type vocabTx interface {
	InsertStatus(ctx context.Context, st *Status) error
	// Statuses lists a workspace's statuses by entity type, then display order.
	Statuses(ctx context.Context, workspaceID string) ([]Status, error)
	InsertItemType(ctx context.Context, it *ItemType) error
	ItemTypes(ctx context.Context, workspaceID string) ([]ItemType, error)
	InsertLinkType(ctx context.Context, lt *LinkType) error
	LinkTypes(ctx context.Context, workspaceID string) ([]LinkType, error)
	// Tags returns up to limit tag names in name order and how many there are.
	Tags(ctx context.Context, f TagFilter) (TagSummary, error)
}

type statusSeed struct{ entity, key, label, category string }

// defaultStatuses is every new workspace's status vocabulary; the first of
// each entity type is its default. A document is in force while its status
// is in the in_progress category: "current" is, "draft" (todo), "archived"
// (done) and "superseded" (cancelled) are not. A hand-set "blocked" task
// status is only a label: readiness reads blocks links, not this.
var defaultStatuses = []statusSeed{
	{"task", "todo", "To do", CategoryTodo},
	{"task", "in_progress", "In progress", CategoryInProgress},
	{"task", "blocked", "Blocked", CategoryTodo},
	{"task", "done", "Done", CategoryDone},
	{"task", "cancelled", "Cancelled", CategoryCancelled},
	{"project", "active", "Active", CategoryInProgress},
	{"project", "planned", "Planned", CategoryTodo},
	{"project", "on_hold", "On hold", CategoryTodo},
	{"project", "completed", "Completed", CategoryDone},
	{"project", "cancelled", "Cancelled", CategoryCancelled},
	{"document", "current", "Current", CategoryInProgress},
	{"document", "draft", "Draft", CategoryTodo},
	{"document", "archived", "Archived", CategoryDone},
	{"document", "superseded", "Superseded", CategoryCancelled},
}

// defaultItemTypes is every new workspace's item types; the first of each
// entity type is its default. The governing category marks the documents
// that can bind work (decisions, specs, designs, dead ends).
var defaultItemTypes = []ItemType{
	{EntityType: "task", Key: "task", Label: "Task", Category: "work"},
	{EntityType: "task", Key: "bug", Label: "Bug", Category: "work"},
	{EntityType: "task", Key: "feature", Label: "Feature", Category: "work"},
	{EntityType: "task", Key: "chore", Label: "Chore", Category: "work"},
	{EntityType: "task", Key: "question", Label: "Question", Category: "inquiry"},
	{EntityType: "task", Key: "event", Label: "Event", Category: "occasion"},
	{EntityType: "document", Key: "note", Label: "Note", Category: "knowledge"},
	{EntityType: "document", Key: "spec", Label: "Specification", Category: "governing"},
	{EntityType: "document", Key: "design", Label: "Design", Category: "governing"},
	{EntityType: "document", Key: "decision", Label: "Decision", Category: "governing"},
	{EntityType: "document", Key: "finding", Label: "Finding", Category: "knowledge"},
	{EntityType: "document", Key: "dead_end", Label: "Dead end", Category: "governing"},
}

// defaultLinkTypes is every new workspace's link vocabulary.
var defaultLinkTypes = []LinkType{
	{Key: "blocks", Title: "blocks", InverseTitle: "is blocked by", Category: LinkSequencing},
	{Key: "precedes", Title: "precedes", InverseTitle: "follows", Category: LinkSequencing},
	{Key: "relates_to", Title: "relates to", InverseTitle: "relates to", IsSymmetric: true, Category: LinkAssociation},
	{Key: "duplicates", Title: "duplicates", InverseTitle: "is duplicated by", Category: LinkAssociation},
	{Key: "documents", Title: "documents", InverseTitle: "is documented by", Category: LinkGoverning},
	{Key: "derives_from", Title: "derives from", InverseTitle: "gives rise to", Category: LinkGoverning},
	{Key: "supersedes", Title: "supersedes", InverseTitle: "is superseded by", Category: LinkProvenance},
}

// seedWorkspace writes the default vocabularies and the inbox project.
func seedWorkspace(ctx context.Context, tx Tx, w Workspace, ownerID string) error {
	now := tx.Now()
	pos := map[string]int{}
	defaults := map[string]string{}
	for _, d := range defaultStatuses {
		st := Status{VocabEntry: VocabEntry{ID: newID(), WorkspaceID: w.ID, EntityType: d.entity, Key: d.key, Label: d.label,
			Category: d.category, Position: pos[d.entity], IsDefault: pos[d.entity] == 0}, CreatedAt: now, UpdatedAt: now}
		if st.IsDefault {
			defaults[d.entity] = st.ID
		}
		pos[d.entity]++
		if err := tx.InsertStatus(ctx, &st); err != nil {
			return err
		}
	}
	pos = map[string]int{}
	for _, it := range defaultItemTypes {
		it.ID, it.WorkspaceID, it.Position, it.IsDefault = newID(), w.ID, pos[it.EntityType], pos[it.EntityType] == 0
		pos[it.EntityType]++
		if err := tx.InsertItemType(ctx, &it); err != nil {
			return err
		}
	}
	for _, lt := range defaultLinkTypes {
		lt.ID, lt.WorkspaceID, lt.CreatedAt = newID(), w.ID, now
		if err := tx.InsertLinkType(ctx, &lt); err != nil {
			return err
		}
	}
	inbox := Project{ID: newID(), WorkspaceID: w.ID, Key: "inbox", Title: "Inbox", Visibility: "public",
		IsInbox: true, OwnerID: ownerID, StatusID: defaults["project"], CreatedBy: ownerID, CreatedAt: now, UpdatedAt: now, Version: 1}
	if err := tx.InsertProject(ctx, &inbox); err != nil {
		return err
	}
	return tx.InsertProjectMember(ctx, inbox.ID, ownerID, now)
}
