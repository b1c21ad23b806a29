package app

import "slices"

// migratedLinkTypes are the link types an importer may name beyond the
// default vocabulary, created in the workspace the first time one is used.
var migratedLinkTypes = map[string]CreateLinkType{
	"copied_from":     {Key: "copied_from", Title: "copied from", InverseTitle: "copied to", Category: "provenance"},
	"discovered_from": {Key: "discovered_from", Title: "discovered from", InverseTitle: "led to", Category: "provenance"},
	"has_subtask":     {Key: "has_subtask", Title: "has subtask", InverseTitle: "is a subtask of", Category: "association"},
}

// links writes every link of the migration both of whose ends are written
// by now (in this project or an earlier one) and that is not there yet.
// After the last project, a link with an end still missing is reported.
func (mg *migrator) links() error {
	last := mg.cur != nil && len(mg.rep.Projects) >= len(mg.m.Projects)
	for _, l := range mg.m.Links {
		from, okFrom, err := mg.written(l.From)
		if err != nil {
			return err
		}
		to, okTo, err := mg.written(l.To)
		if err != nil {
			return err
		}
		if !okFrom || !okTo {
			if last {
				mg.unmapped(l.Where, l.Type, "a link to a task that is not in the file (%s → %s): left out", l.From, l.To)
			}
			continue
		}
		if from.ID == to.ID || (mg.inProject(from) == nil && mg.inProject(to) == nil) {
			continue
		}
		if err := mg.link(l, from, to); err != nil {
			return atWhere(l.Where, err)
		}
	}
	return nil
}

// written finds the task an id of the tool names, written by this import
// or an earlier one; trashed tasks count as not there.
func (mg *migrator) written(id string) (TaskLocation, bool, error) {
	if loc, ok := mg.tasks[id]; ok {
		return loc, loc.DeletedAt == nil, nil
	}
	ref, ok, err := mg.lookup("task", id)
	if !ok || err != nil {
		return TaskLocation{}, false, err
	}
	loc, err := mg.tx.TaskLocator(mg.ctx, mg.sc.ws.Workspace.ID, ref.EntityID)
	if CodeOf(err) == CodeNotFound {
		return TaskLocation{}, false, nil
	}
	return loc, err == nil && loc.DeletedAt == nil, err
}

// inProject is the project of the current transaction holding loc, nil
// when loc is elsewhere: a link is written in the transaction of the later
// of its two ends, and both earlier ones skip it.
func (mg *migrator) inProject(loc TaskLocation) *projectNode {
	if mg.cur == nil || mg.sc.byID[loc.ProjectID] == nil || mg.sc.byID[loc.ProjectID].Key != mg.cur.Key {
		return nil
	}
	return mg.sc.byID[loc.ProjectID]
}

// link writes one link from the task from to the task to.
func (mg *migrator) link(l MigratedLink, from, to TaskLocation) error {
	lts, err := linkTypeKind.list(mg.tx, mg.ctx, mg.sc.ws.Workspace.ID)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(lts, func(lt LinkType) bool { return lt.Key == l.Type })
	var lt LinkType
	if i >= 0 {
		lt = lts[i]
	} else {
		def, ok := migratedLinkTypes[l.Type]
		if !ok {
			mg.unmapped(l.Where, l.Type, "no link type of that key in this workspace: left out")
			return nil
		}
		if err := mg.sc.ws.require(PermWorkspaceWrite); err != nil {
			mg.unmapped(l.Where, l.Type, "no link type of that key, and you may not add one: left out")
			return nil
		}
		lt = LinkType{ID: newID(), WorkspaceID: mg.sc.ws.Workspace.ID, Key: def.Key, Title: def.Title, InverseTitle: def.InverseTitle,
			Category: def.Category, CreatedAt: mg.tx.Now()}
		if err := mg.tx.InsertLinkType(mg.ctx, &lt); err != nil {
			return err
		}
		if err := linkTypeKind.record(mg.ctx, mg.tx, mg.a, lt, "created", map[string]any{"key": lt.Key}); err != nil {
			return err
		}
		mg.cur.LinkTypesCreated = append(mg.cur.LinkTypesCreated, lt.Key)
	}
	if !mg.sc.byID[from.ProjectID].canWriteItems() || !mg.sc.byID[to.ProjectID].canReadItems() {
		return NotFound("task")
	}
	self := linkSelf{sc: mg.sc, Type: "task", ID: from.ID, Ref: from.Ref, Title: from.Title, ParentID: from.ParentID}
	_, err = insertLink(mg.ctx, mg.tx, mg.a, self, lt, "outgoing", to, "task")
	if CodeOf(err) == CodeConflict {
		return nil // there already, in this direction or, symmetric, the other
	}
	if err == nil {
		mg.cur.LinksCreated++
	}
	return err
}
