package app

// seesProject reports whether a project key or id names a project in the
// reader's sight.
func (sc *scope) seesProject(v any) bool {
	s, ok := v.(string)
	if !ok || s == "" {
		return true
	}
	n := sc.byKey[s]
	if n == nil {
		n = sc.byID[s]
	}
	return n != nil && n.sight
}

// redact blanks what an event's changes say about projects the reader
// cannot see: the keys a task or document move records (and the parent it
// left or joined there), and the parent a project move records. The event
// itself stays: the reader may see the thing it is about.
func (sc *scope) redact(e *Event) {
	if e.Changes == nil {
		return
	}
	ch := make(map[string]any, len(e.Changes))
	for k, v := range e.Changes {
		ch[k] = v
	}
	switch p := ch["project"].(type) {
	case string:
		if !sc.seesProject(p) {
			delete(ch, "project")
		}
	case map[string]any:
		ch["project"] = sc.blankEnds(p, sc.seesProject, ch)
	}
	if e.EntityType == "project" {
		switch p := ch["parent"].(type) {
		case string:
			if !sc.seesProject(p) {
				ch["parent"] = nil
			}
		case map[string]any:
			ch["parent"] = sc.blankEnds(p, sc.seesProject, nil)
		}
	}
	e.Changes = ch
}

// blankEnds copies a {from, to} change with the ends the reader cannot see
// set to null; for a move it blanks the same end of the item's parent.
func (sc *scope) blankEnds(m map[string]any, sees func(any) bool, ch map[string]any) map[string]any {
	out := map[string]any{"from": m["from"], "to": m["to"]}
	parent, _ := ch["parent"].(map[string]any)
	if parent != nil {
		parent = map[string]any{"from": parent["from"], "to": parent["to"]}
		ch["parent"] = parent
	}
	for _, end := range []string{"from", "to"} {
		if !sees(m[end]) {
			out[end] = nil
			if parent != nil {
				parent[end] = nil
			}
		}
	}
	return out
}
