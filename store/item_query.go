package store

import (
	"database/sql"
	"strconv"
	"strings"

	"tend/app"
)

// itemQuery builds the listing query of tasks or of documents: conditions
// joined by AND, every value bound by name. The values every listing shares
// have fixed names the query text uses directly: :now (the reader's clock),
// :readable (the JSON array of the projects whose items the reader may
// read, bound as the CTE readable) and :match (the full-text expression).
// Every other value gets a fresh name from arg, so no condition depends on
// where in the statement it lands.
type itemQuery struct {
	where []string
	args  []any
}

// newItemQuery starts a query for the reader of readable; match, unless
// empty, is the full-text expression a page ranks by.
func newItemQuery(readable, match string) *itemQuery {
	b := &itemQuery{args: []any{sql.Named("readable", readable)}}
	if match != "" {
		b.args = append(b.args, sql.Named("match", match))
	}
	return b
}

// readableCTE binds the readable projects as the table readable.
const readableCTE = "WITH readable(id) AS (SELECT value FROM json_each(:readable)) "

// arg binds v under a fresh name and returns the parameter to write.
func (b *itemQuery) arg(v any) string {
	name := "p" + strconv.Itoa(len(b.args))
	b.args = append(b.args, sql.Named(name, v))
	return ":" + name
}

// add adds a condition.
func (b *itemQuery) add(cond string) { b.where = append(b.where, cond) }

// conds is every condition, joined by AND.
func (b *itemQuery) conds() string { return strings.Join(b.where, " AND ") }

// filter adds the conditions the task and document listings share
// (app.ItemFilter) for the rows aliased a, joined to their status as st.
// tagsOf opens the tag table up to the item column ("task_tags x WHERE
// x.task_id"); fts is the item's full-text index. A page ranks its matches
// through a join of its own; a count only needs them as a condition.
func (b *itemQuery) filter(f app.ItemFilter, a, tagsOf, fts string, count bool) {
	inList := func(col string, ids []string) {
		if ids != nil {
			b.add(col + " IN (SELECT value FROM json_each(" + b.arg(jsonText(ids)) + "))")
		}
	}
	inList(a+".project_id", f.ProjectIDs)
	inList(a+".status_id", f.StatusIDs)
	inList(a+".type_id", f.TypeIDs)
	inList("st.category", f.Categories)
	if f.Nothing {
		b.add("0")
	}
	for _, id := range f.TagIDs {
		b.add("EXISTS (SELECT 1 FROM " + tagsOf + " = " + a + ".id AND x.tag_id IN " + tagOrMerged(b.arg(id)) + ")")
	}
	if f.Match != "" && count {
		b.add(a + ".seq IN (SELECT rowid FROM " + fts + " WHERE " + fts + " MATCH " + b.arg(f.Match) + ")")
	}
	if f.Exclude != "" {
		b.add(a + ".seq NOT IN (SELECT rowid FROM " + fts + " WHERE " + fts + " MATCH " + b.arg(f.Exclude) + ")")
	}
}

// tree adds the condition for the items under parent in table, aliased a:
// its children, or with subtree every descendant.
func (b *itemQuery) tree(a, table, parent string, subtree bool) {
	switch {
	case parent != "" && subtree:
		b.add(a + `.id IN ` + below(table, "= "+b.arg(parent)))
	case parent != "":
		b.add(a + ".parent_id = " + b.arg(parent))
	}
}

// descending reports the tie-breaker's direction: descending only when
// every key is.
func descending(order []app.OrderField) bool {
	for _, f := range order {
		if !f.Desc {
			return false
		}
	}
	return true
}

func dir(desc bool) string {
	if desc {
		return " DESC"
	}
	return ""
}

// orderBy is the ORDER BY of order over exprs (the default order by ref
// when empty), with seq as the tie-breaker.
func orderBy(order []app.OrderField, exprs map[string]string, seq string) string {
	if len(order) == 0 {
		order = []app.OrderField{{Field: "ref"}}
	}
	var parts []string
	for _, f := range order {
		parts = append(parts, exprs[f.Field]+dir(f.Desc))
	}
	return strings.Join(append(parts, seq+dir(descending(order))), ", ")
}

// after is the "after the cursor" condition of order over exprs, "" without
// a cursor. With one direction throughout it compares row values, which an
// index can serve; mixed directions expand into the equivalent OR chain.
func (b *itemQuery) after(order []app.OrderField, cur *app.TaskCursor, exprs map[string]string, seq string) string {
	if cur == nil {
		return ""
	}
	if len(order) == 0 {
		order = []app.OrderField{{Field: "ref"}}
	}
	var keys, vals []string
	var descs []bool
	for i, f := range order {
		keys = append(keys, exprs[f.Field])
		vals = append(vals, b.arg(cur.Values[i]))
		descs = append(descs, f.Desc)
	}
	keys, vals, descs = append(keys, seq), append(vals, b.arg(cur.Seq)), append(descs, descending(order))
	op := func(desc bool) string {
		if desc {
			return " < "
		}
		return " > "
	}
	same := true
	for _, d := range descs[:len(order)] {
		same = same && d == descs[0]
	}
	if same {
		return "(" + strings.Join(keys, ", ") + ")" + op(descs[0]) + "(" + strings.Join(vals, ", ") + ")"
	}
	var ors []string
	for i := range keys {
		var ands []string
		for j := 0; j < i; j++ {
			ands = append(ands, keys[j]+" = "+vals[j])
		}
		ors = append(ors, "("+strings.Join(append(ands, keys[i]+op(descs[i])+vals[i]), " AND ")+")")
	}
	return "(" + strings.Join(ors, " OR ") + ")"
}
