package store

import (
	"strings"

	"tend/app"
)

// itemFilterWhere adds the conditions the task and document listings share
// (app.ItemFilter) for the rows aliased a, joined to their status as st.
// tagsOf opens the tag table up to the item column ("task_tags x WHERE
// x.task_id"); fts is the item's full-text index. A page ranks its matches
// through a join of its own; a count only needs them as a condition.
func itemFilterWhere(f app.ItemFilter, a, tagsOf, fts string, count bool, add func(cond string, args ...any)) {
	inList := func(col string, ids []string) {
		if ids != nil {
			add(col+" IN (SELECT value FROM json_each(?))", jsonText(ids))
		}
	}
	inList(a+".project_id", f.ProjectIDs)
	inList(a+".status_id", f.StatusIDs)
	inList(a+".type_id", f.TypeIDs)
	inList("st.category", f.Categories)
	if f.Nothing {
		add("0")
	}
	for _, id := range f.TagIDs {
		add("EXISTS (SELECT 1 FROM "+tagsOf+" = "+a+".id AND x.tag_id = ?)", id)
	}
	if f.Match != "" && count {
		add(a+".seq IN (SELECT rowid FROM "+fts+" WHERE "+fts+" MATCH ?)", f.Match)
	}
	if f.Exclude != "" {
		add(a+".seq NOT IN (SELECT rowid FROM "+fts+" WHERE "+fts+" MATCH ?)", f.Exclude)
	}
}

// orderAndKeyset builds ORDER BY and the "after the cursor" condition from
// sort expressions and the tie-breaker seq. With one direction throughout
// it compares row values, which an index can serve; mixed directions
// expand into the equivalent OR chain.
func orderAndKeyset(order []app.OrderField, after *app.TaskCursor, exprs map[string]string, seq string) (string, string, []any) {
	if len(order) == 0 {
		order = []app.OrderField{{Field: "ref"}}
	}
	same := true
	for _, f := range order {
		same = same && f.Desc == order[0].Desc
	}
	seqDesc := same && order[0].Desc
	dir := func(desc bool) string {
		if desc {
			return " DESC"
		}
		return ""
	}
	var parts, keys []string
	for _, f := range order {
		e := exprs[f.Field]
		keys = append(keys, e)
		parts = append(parts, e+dir(f.Desc))
	}
	parts = append(parts, seq+dir(seqDesc))
	if after == nil {
		return strings.Join(parts, ", "), "", nil
	}
	vals := append(append([]any{}, after.Values...), after.Seq)
	keys = append(keys, seq)
	descs := make([]bool, 0, len(order)+1)
	for _, f := range order {
		descs = append(descs, f.Desc)
	}
	descs = append(descs, seqDesc)
	if same {
		op := ">"
		if seqDesc {
			op = "<"
		}
		return strings.Join(parts, ", "), "(" + strings.Join(keys, ", ") + ") " + op + " (" + strings.TrimSuffix(strings.Repeat("?, ", len(keys)), ", ") + ")", vals
	}
	var ors []string
	var args []any
	for i := range keys {
		var ands []string
		for j := 0; j < i; j++ {
			ands = append(ands, keys[j]+" = ?")
			args = append(args, vals[j])
		}
		op := ">"
		if descs[i] {
			op = "<"
		}
		ands = append(ands, keys[i]+" "+op+" ?")
		args = append(args, vals[i])
		ors = append(ors, "("+strings.Join(ands, " AND ")+")")
	}
	return strings.Join(parts, ", "), "(" + strings.Join(ors, " OR ") + ")", args
}
