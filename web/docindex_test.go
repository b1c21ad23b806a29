package web_test

import (
	"bytes"
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"tend/app"
	"tend/web/webtest"
	"tend/web/wire"
)

// largeBody is a body of about 200 KiB, indexed in four chunks: first is
// its first word, last its last, mid a word in the second chunk, and the
// phrase "quiet harbour" straddles the first cut. The first chunk is the
// body's first 65,536 bytes cut after the last space: "quiet" ends at byte
// 65,531 with the space that ends the chunk, "harbour" starts the next.
func largeBody(first, mid, last string) string {
	var b strings.Builder
	b.WriteString(first + " ")
	for b.Len() < 65526-7 {
		b.WriteString("filler ")
	}
	for b.Len() < 65526 {
		b.WriteString("x")
	}
	b.WriteString(" quiet harbour ")
	for b.Len() < 100000 {
		b.WriteString("filler ")
	}
	b.WriteString(mid + " ")
	for b.Len() < 200000 {
		b.WriteString("filler ")
	}
	b.WriteString(last)
	return b.String()
}

// docFound lists the titles of the documents q finds, through every search
// surface: the document listing (its page and its total), GET /v1/search
// and MCP's service_search; it fails if they disagree.
func docFound(t *testing.T, e *env, q string) []string {
	t.Helper()
	list := e.OK(http.StatusOK, http.MethodGet, "/v1/documents?include_total=true&q="+url.QueryEscape(q), e.Admin, nil)
	var titles []string
	for _, it := range lstItems(list) {
		titles = append(titles, it["title"].(string))
	}
	slices.Sort(titles)
	if n := lstNum(lstPage(list)["total"]); n != int64(len(titles)) {
		t.Fatalf("q=%s: the listing's total is %d, its page %v", q, n, titles)
	}
	var searched []string
	for _, it := range e.OK(http.StatusOK, http.MethodGet, "/v1/search?q="+url.QueryEscape(q), e.Admin, nil)["documents"].([]any) {
		searched = append(searched, it.(map[string]any)["title"].(string))
	}
	slices.Sort(searched)
	if !slices.Equal(searched, titles) {
		t.Fatalf("q=%s: the listing finds %v, GET /v1/search %v", q, titles, searched)
	}
	text := e.Connect(t, e.Admin, webtest.EraStateless).OK("service_search", map[string]any{"q": q}).Text
	for _, title := range titles {
		if !strings.Contains(text, title) {
			t.Fatalf("q=%s: the listing finds %v, service_search says:\n%s", q, titles, text)
		}
	}
	for _, title := range []string{"Large manual", "Small note"} {
		if strings.Contains(text, title) && !slices.ContainsFunc(titles, func(s string) bool { return strings.HasPrefix(s, title) }) {
			t.Fatalf("q=%s: the listing finds %v, service_search says:\n%s", q, titles, text)
		}
	}
	return titles
}

// wantFound checks what each q finds.
func wantFound(t *testing.T, e *env, cases map[string][]string) {
	t.Helper()
	for q, want := range cases {
		if got := docFound(t, e, q); !slices.Equal(got, want) {
			t.Errorf("q=%s finds %v, want %v", q, got, want)
		}
	}
}

// ftsIntact runs FTS5's integrity checks on both document indexes, the
// whole one against its content.
func ftsIntact(t *testing.T, path string) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, q := range []string{`INSERT INTO documents_fts (documents_fts, rank) VALUES ('integrity-check', 1)`,
		`INSERT INTO document_chunks_fts (document_chunks_fts) VALUES ('integrity-check')`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestLargeDocumentIndexedInSteps: a body over 64 KiB is indexed by the
// worker, a chunk a step; until the last chunk the document is found by
// its title only, everywhere, and then by any word or phrase of its body,
// across chunks. A server stopped between steps finishes at its next
// start.
func TestLargeDocumentIndexedInSteps(t *testing.T) {
	t.Parallel()
	e, path, admin, entered, gate := gatedBulkEnv(t, 3)
	e.docCreate(e.Admin, map[string]any{"title": "Small note", "body": "a short alpha note"})
	// Others, so that BM25 finds alpha rare among the small documents too.
	for _, title := range []string{"one", "two", "three", "four", "five", "six", "seven", "eight"} {
		e.docCreate(e.Admin, map[string]any{"title": "Other " + title, "body": "nothing to see " + title})
	}
	large := largeBody("alpha", "beta", "omega")
	doc := e.docCreate(e.Admin, map[string]any{"title": "Large manual", "body": large})
	if doc["body"] != large {
		t.Fatal("the large body did not come back whole")
	}
	chunks := func() int { return rowCount(t, path, `SELECT coalesce(max(chunks), -1) FROM document_chunking`) }
	titleOnly := map[string][]string{
		"alpha":           {"Small note"},
		"omega":           nil,
		`"quiet harbour"`: nil,
		"manual":          {"Large manual"},
		"manual -omega":   {"Large manual"},
		"note OR manual":  nil,
	}
	<-entered
	t.Run("at once", func(t *testing.T) {
		if n := chunks(); n != 0 {
			t.Fatalf("%d chunks indexed before the first step", n)
		}
		wantFound(t, e.sub(t), titleOnly)
	})
	gate <- nil
	<-entered
	t.Run("between steps", func(t *testing.T) {
		if n := chunks(); n != 1 {
			t.Fatalf("%d chunks indexed after one step, want 1", n)
		}
		wantFound(t, e.sub(t), titleOnly)
	})
	killWorker(t, e, gate)

	e = bulkEnv(t, path, admin, 3, nil)
	finishWork(t, e)
	if n := chunks(); n != 4 {
		t.Fatalf("%d chunks indexed in the end, want 4", n)
	}
	both := []string{"Large manual", "Small note"}
	wantFound(t, e, map[string][]string{
		"alpha":              both,
		"omega":              {"Large manual"},
		"beta":               {"Large manual"},
		`"quiet harbour"`:    {"Large manual"},
		`"harbour quiet"`:    nil,
		"alpha omega":        {"Large manual"},
		"alpha beta omega":   {"Large manual"},
		"manual omega":       {"Large manual"},
		"manual short":       nil,
		"alpha -omega":       {"Small note"},
		"alpha -beta":        {"Small note"},
		"alpha -manual":      {"Small note"},
		"alpha -zzz":         both,
		"omeg*":              {"Large manual"},
		"omega zzz":          nil,
		"filler":             {"Large manual"},
		"note -filler":       {"Small note"},
		"alpha short":        {"Small note"},
		"alpha note -filler": {"Small note"},
	})
	// The best match first: the small note, all alpha, before the large
	// manual, one alpha in 200 KiB.
	var ranked []string
	for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/documents?q=alpha", e.Admin, nil)) {
		ranked = append(ranked, it["title"].(string))
	}
	if !slices.Equal(ranked, []string{"Small note", "Large manual"}) {
		t.Fatalf("q=alpha ranks %v, want the small note, all alpha, first", ranked)
	}
	ftsIntact(t, path)

	// An import (here a copy into this instance) indexes its large bodies
	// in steps after it commits.
	if _, err := e.Svc.Import(context.Background(), app.SystemActor("cli"), wire.NewExportDecoder(bytes.NewReader(e.exportAll())), false); err != nil {
		t.Fatal(err)
	}
	if err := e.Svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	if n := rowCount(t, path, `SELECT count(*) FROM document_chunking WHERE next IS NULL AND chunks = 4`); n != 2 {
		t.Fatalf("%d large bodies indexed after the import, want the original and its copy", n)
	}
	if n := rowCount(t, path, `SELECT count(*) FROM document_chunks_fts WHERE document_chunks_fts MATCH 'omega'`); n != 2 {
		t.Fatalf("%d chunks hold omega after the import, want 2", n)
	}
	ftsIntact(t, path)
}

// TestLargeDocumentBodyChanges: a body that shrinks under the threshold is
// indexed whole at once and its chunks go; one that grows over it leaves
// the whole index and is found by its title until its chunks are indexed;
// a large body replaced by another large one is found by none of the old
// words at once, and by the new ones once indexed. The indexes stay
// exact throughout.
func TestLargeDocumentBodyChanges(t *testing.T) {
	t.Parallel()
	e, path, _, entered, gate := gatedBulkEnv(t, 3)
	step := func() { <-entered; gate <- nil }
	settle := func() {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- e.Svc.SettleWork() }()
		for {
			select {
			case <-entered:
				gate <- nil
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				return
			}
		}
	}
	large := e.docCreate(e.Admin, map[string]any{"title": "Large manual", "body": largeBody("alpha", "beta", "omega")})
	settle()
	smallDoc := e.docCreate(e.Admin, map[string]any{"title": "Small note", "body": "a short note"})
	wantFound(t, e, map[string][]string{"alpha": {"Large manual"}, "short": {"Small note"}})

	// Large to large: the old words go at once, the new ones come with the
	// worker.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/documents/"+large["id"].(string), e.Admin,
		map[string]any{"body": largeBody("delta", "epsilon", "zeta")})
	step()
	wantFound(t, e, map[string][]string{"alpha": nil, "delta": nil, "manual": {"Large manual"}})
	settle()
	wantFound(t, e, map[string][]string{"alpha": nil, "omega": nil, "delta zeta": {"Large manual"}, `"quiet harbour"`: {"Large manual"}})
	ftsIntact(t, path)

	// Small to large, and large to small.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/documents/"+smallDoc["id"].(string), e.Admin,
		map[string]any{"body": largeBody("kappa", "lambda", "mu")})
	e.OK(http.StatusOK, http.MethodPatch, "/v1/documents/"+large["id"].(string), e.Admin, map[string]any{"body": "now tiny"})
	wantFound(t, e, map[string][]string{"short": nil, "kappa": nil, "tiny": {"Large manual"}, "delta": nil, "note": {"Small note"}})
	settle()
	wantFound(t, e, map[string][]string{"kappa mu": {"Small note"}, "tiny": {"Large manual"}, "zeta": nil, "filler": {"Small note"}})
	// A new title alone keeps the chunks.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/documents/"+smallDoc["id"].(string), e.Admin, map[string]any{"title": "Small note renamed"})
	if got := docFound(t, e, "renamed lambda"); !slices.Equal(got, []string{"Small note renamed"}) {
		t.Fatalf("q=renamed lambda finds %v", got)
	}
	ftsIntact(t, path)

	// Trashed and restored: the index is the row's, untouched.
	e.OK(http.StatusOK, http.MethodDelete, "/v1/documents/"+smallDoc["id"].(string), e.Admin, nil)
	if got := docFound(t, e, "lambda"); len(got) != 0 {
		t.Fatalf("q=lambda finds a trashed document: %v", got)
	}
	e.OK(http.StatusOK, http.MethodPost, "/v1/documents/"+smallDoc["id"].(string)+"/restore", e.Admin, nil)
	if got := docFound(t, e, "lambda"); len(got) != 1 {
		t.Fatalf("q=lambda finds %v once restored", got)
	}

	// A document removed from the file takes its chunks along.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`DELETE FROM documents WHERE id = ?`, smallDoc["id"]); err != nil {
		t.Fatal(err)
	}
	if n := rowCount(t, path, `SELECT count(*) FROM document_chunking`); n != 0 {
		t.Fatalf("%d bodies queued after the delete", n)
	}
	if n := rowCount(t, path, `SELECT count(*) FROM document_chunks_fts WHERE document_chunks_fts MATCH 'filler'`); n != 0 {
		t.Fatalf("%d chunks left after the delete", n)
	}
	ftsIntact(t, path)
}
