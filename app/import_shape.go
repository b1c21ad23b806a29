package app

// importShape gathers, while an import reads its file, what no single
// record can be checked for: a parent or an account's chain that comes
// back on itself (the API refuses such a move with cycle), and a ref at or
// past its workspace's next_ref, which would make every later create in
// that workspace collide with an imported item.
type importShape struct {
	// up names, by kind and the file's id of a row, the row above it (its
	// parent, or the account it answers to) and the line that said so.
	up map[string]map[string]shapeEdge
	// refs is the highest ref of an item of each workspace, next the
	// workspace's next_ref, both by the file's id of the workspace.
	refs map[string]shapeRef
	next map[string]int64
}

type shapeEdge struct {
	to   string
	line int
}

type shapeRef struct {
	ref  int64
	line int
}

// upField is the field that names the row above a row of each kind.
var upField = map[string]string{"task": "parent_id", "document": "parent_id", "project": "parent_id", "user": "answers_to"}

func newImportShape() *importShape {
	return &importShape{up: map[string]map[string]shapeEdge{}, refs: map[string]shapeRef{}, next: map[string]int64{}}
}

// note records what a record written says of its tree and its refs.
func (sh *importShape) note(rec *Record) {
	if f, ok := upField[rec.Kind]; ok {
		if to := rec.Text(f); to != "" {
			if sh.up[rec.Kind] == nil {
				sh.up[rec.Kind] = map[string]shapeEdge{}
			}
			sh.up[rec.Kind][rec.Text("id")] = shapeEdge{to, rec.Line}
		}
	}
	switch rec.Kind {
	case "workspace":
		if n, ok := rec.Get("next_ref").(int64); ok {
			sh.next[rec.Text("id")] = n
		}
	case "task", "document":
		ws := rec.Text("workspace_id")
		if n, ok := rec.Get("ref").(int64); ok && n > sh.refs[ws].ref {
			sh.refs[ws] = shapeRef{n, rec.Line}
		}
	}
}

// check refuses a cycle and a ref the workspace's counter has not passed.
func (sh *importShape) check() error {
	for _, kind := range []string{"user", "project", "task", "document"} {
		if err := cycleIn(kind, sh.up[kind]); err != nil {
			return err
		}
	}
	for ws, r := range sh.refs {
		if next, ok := sh.next[ws]; ok && r.ref >= next {
			return atLine(r.line, Errorf(CodeInvalid,
				"an item has the ref %d, but its workspace's next_ref is %d: the next item made there would take a ref already used", r.ref, next))
		}
	}
	return nil
}

// cycleIn refuses the first row of up whose walk up comes back to a row
// of its own walk. Each row is walked once: a walk stops at a row an
// earlier walk cleared.
func cycleIn(kind string, up map[string]shapeEdge) error {
	const walking, clear = 1, 2
	state := make(map[string]int8, len(up))
	for start := range up {
		var path []string
		id := start
		for state[id] == 0 {
			e, ok := up[id]
			if !ok {
				break
			}
			state[id] = walking
			path = append(path, id)
			id = e.to
		}
		if state[id] == walking {
			return atLine(firstLine(up, id), Errorf(CodeCycle, "field %q of a %s record makes it its own ancestor", upField[kind], kind))
		}
		for _, p := range path {
			state[p] = clear
		}
	}
	return nil
}

// firstLine is the first line of the file among the rows of the cycle
// through id, so that a refusal names the same line however it was found.
func firstLine(up map[string]shapeEdge, id string) int {
	line := up[id].line
	for at := up[id].to; at != id; at = up[at].to {
		line = min(line, up[at].line)
	}
	return line
}
