package store_test

import (
	"context"
	"sort"
	"strconv"
	"testing"

	"tend/app"
)

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
