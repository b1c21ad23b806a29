package store_test

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"

	"tend/app"
)

// TestLinkCountsFollowLinks: the per-task link counts the listings lean on
// (migration 0007) equal the links actually stored, through adding and
// removing links of several types between tasks and documents.
func TestLinkCountsFollowLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc, a := bootstrapped(t)
	type end struct{ entity, ref string }
	var ends []end
	for i := range 8 {
		tk, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: "task " + strconv.Itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, end{"task", strconv.FormatInt(tk.Ref, 10)})
	}
	for i := range 3 {
		d, err := svc.CreateDocument(ctx, a, "", app.DocumentCreate{Title: "doc " + strconv.Itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, end{"document", strconv.FormatInt(d.Ref, 10)})
	}
	type made struct {
		from end
		id   string
	}
	var links []made
	rng := rand.New(rand.NewPCG(7, 8))
	types := []string{"blocks", "relates_to", "documents", "precedes"}
	raw, err := sql.Open("sqlite", db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	count := func(query string) int {
		t.Helper()
		var n int
		if err := raw.QueryRow(query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	mismatched := func() int {
		return count(`SELECT count(*) FROM tasks WHERE
			links_in <> (SELECT count(*) FROM links WHERE target_id = tasks.id) OR
			links_out <> (SELECT count(*) FROM links WHERE source_id = tasks.id)`)
	}
	for step := range 120 {
		if len(links) > 0 && rng.IntN(3) == 0 {
			i := rng.IntN(len(links))
			l := links[i]
			if err := svc.RemoveLink(ctx, a, "", l.from.entity, l.from.ref, l.id); err != nil {
				t.Fatal(err)
			}
			links = append(links[:i], links[i+1:]...)
		} else {
			from, to := ends[rng.IntN(len(ends))], ends[rng.IntN(len(ends))]
			vs, err := svc.AddLinks(ctx, a, "", app.LinkRequest{LinkType: types[rng.IntN(len(types))], Target: app.FlexRef(to.ref),
				TargetType: to.entity}.Set(from.entity, from.ref))
			if err != nil {
				continue // the same link again, a link to itself, or a type the pair cannot take
			}
			links = append(links, made{from, vs[0].ID})
		}
		if n := mismatched(); n != 0 {
			t.Fatalf("after step %d, %d tasks count their links wrong", step, n)
		}
	}
	if len(links) == 0 || count(`SELECT count(*) FROM tasks WHERE links_in > 0 OR links_out > 0`) == 0 {
		t.Fatal("the walk left no link to count")
	}
}

// TestDocumentAndCommentMentions: writing a document's text or a comment
// records what it mentions, never the item itself; withdrawing a comment
// withdraws its mentions.
func TestDocumentAndCommentMentions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc, a := bootstrapped(t)
	task, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: "target"})
	if err != nil {
		t.Fatal(err)
	}
	ref := "#" + strconv.FormatInt(task.Ref, 10)
	body := "see " + ref
	doc, err := svc.CreateDocument(ctx, a, "", app.DocumentCreate{Title: "about " + ref, Body: &body})
	if err != nil {
		t.Fatal(err)
	}
	self := "#" + strconv.FormatInt(doc.Ref, 10)
	c, err := svc.AddComment(ctx, a, "", "task", strconv.FormatInt(task.Ref, 10), app.CommentCreate{Body: "per " + self + " and " + ref})
	if err != nil {
		t.Fatal(err)
	}
	raw := rawOpen(t, db.Path())
	mentions := func() []string {
		t.Helper()
		return column(t, raw, `SELECT source_id || '→' || target_id FROM mentions ORDER BY 1`)
	}
	want := []string{c.ID + "→" + doc.ID, doc.ID + "→" + task.ID}
	sort.Strings(want)
	if got := mentions(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("mentions %v, want %v (a comment on the task does not mention the task)", got, want)
	}
	if _, err := svc.UpdateDocument(ctx, a, "", doc.ID, app.DocumentUpdate{Body: app.Patch[string]{Set: true, Null: true}, Title: app.PatchOf("plain")}); err != nil {
		t.Fatal(err)
	}
	if err := svc.DeleteComment(ctx, a, c.ID); err != nil {
		t.Fatal(err)
	}
	if got := mentions(); len(got) != 0 {
		t.Fatalf("mentions after the text went: %v", got)
	}
}
