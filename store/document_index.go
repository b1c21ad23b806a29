package store

import (
	"context"
	"database/sql"
	"strings"

	"tend/app"
	"tend/app/background"
)

// NextDocumentChunk reads where the next chunk of the oldest queued body
// starts (migration 0022), at most background.DocumentChunkBytes of it.
func (t *Tx) NextDocumentChunk(ctx context.Context) (background.DocumentChunk, error) {
	var r struct {
		Seq    int64  `db:"doc_seq"`
		Next   int64  `db:"next"`
		Chunks int    `db:"chunks"`
		Size   int64  `db:"size"`
		Window []byte `db:"win"`
	}
	err := t.tx.GetContext(ctx, &r, `SELECT c.doc_seq, c.next, c.chunks, octet_length(d.body) AS size,
		substr(CAST(d.body AS BLOB), c.next + 1, ?) AS win
		FROM document_chunking c JOIN documents d ON d.seq = c.doc_seq WHERE c.next IS NOT NULL ORDER BY c.doc_seq LIMIT 1`,
		background.DocumentChunkBytes)
	if err == sql.ErrNoRows {
		return background.DocumentChunk{}, nil
	}
	if err != nil {
		return background.DocumentChunk{}, mapErr(err)
	}
	return background.DocumentChunk{Seq: r.Seq, Start: r.Next, Number: r.Chunks, Window: r.Window,
		Last: r.Next+int64(len(r.Window)) >= r.Size}, nil
}

// IndexDocumentChunk indexes text as chunk n of the document and moves its
// queue entry on to next, or marks the body indexed when next < 0.
func (t *Tx) IndexDocumentChunk(ctx context.Context, seq int64, n int, text string, next int64) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO document_chunks_fts (rowid, body) VALUES (?, ?)`, seq*chunkSlots+int64(n), text)
	if err != nil {
		return mapErr(err)
	}
	var nextArg any
	if next >= 0 {
		nextArg = next
	}
	_, err = t.tx.ExecContext(ctx, `UPDATE document_chunking SET next = ?, chunks = chunks + 1 WHERE doc_seq = ?`, nextArg, seq)
	return mapErr(err)
}

// MergeDocumentChunks does at most pages pages of FTS5's merging of the
// chunk index's segments (which it does not do as it writes them,
// migration 0022), and reports whether there was any to do: FTS5 tells by
// the changes the command made.
func (t *Tx) MergeDocumentChunks(ctx context.Context, pages int) (bool, error) {
	var before, after int64
	if err := t.tx.GetContext(ctx, &before, `SELECT total_changes()`); err != nil {
		return false, mapErr(err)
	}
	if _, err := t.tx.ExecContext(ctx, `INSERT INTO document_chunks_fts (document_chunks_fts, rank) VALUES ('merge', ?)`, pages); err != nil {
		return false, mapErr(err)
	}
	err := t.tx.GetContext(ctx, &after, `SELECT total_changes()`)
	return after-before >= 2, mapErr(err)
}

// chunkSlots is how many chunk rowids a document has: chunk n of the
// document of seq s is s * 4096 + n (migration 0022).
const chunkSlots = 4096

// documentMatch is the search of the documents listing (match, the
// parameter bound to app.ItemFilter's Match, and its Words) as one source of (frow, fscore): the document's seq
// and its relevance, higher is better.
//
// A document indexed whole (documents_fts holds its title and body) is
// matched and ranked as ever: BM25 with a title hit weighing four times a
// body hit. A large one whose chunks are all indexed (document_chunking's
// next is NULL) matches when every word is in its title or in some chunk;
// its relevance is its best chunk's BM25 for any of the words (as the
// body column, weight 1) plus its title's for any of them (weight 4). A
// large one still being indexed has its title alone in documents_fts, so
// it is found by its title only, like any document, until it is done.
func documentMatch(b *itemQuery, match string, words []string) string {
	wordsArg := b.arg(jsonText(words))
	anyArg := b.arg(strings.Join(words, " OR "))
	return `SELECT rowid AS frow, -bm25(documents_fts, 4.0, 1.0) AS fscore FROM documents_fts WHERE documents_fts MATCH ` + match + `
			AND rowid NOT IN (SELECT doc_seq FROM document_chunking WHERE next IS NULL)
		UNION ALL SELECT c.doc_seq, coalesce((SELECT -bm25(document_chunks_fts) FROM document_chunks_fts
				WHERE document_chunks_fts MATCH ` + anyArg + ` AND rowid BETWEEN c.doc_seq * 4096 AND c.doc_seq * 4096 + 4095
				ORDER BY bm25(document_chunks_fts) LIMIT 1), 0)
			+ coalesce((SELECT -bm25(documents_fts, 4.0, 1.0) FROM documents_fts WHERE documents_fts MATCH ` + anyArg + ` AND rowid = c.doc_seq), 0)
		FROM document_chunking c WHERE c.next IS NULL AND NOT EXISTS (SELECT 1 FROM json_each(` + wordsArg + `) w
			WHERE NOT EXISTS (SELECT 1 FROM documents_fts WHERE documents_fts MATCH w.value AND rowid = c.doc_seq)
			AND NOT EXISTS (SELECT 1 FROM document_chunks_fts WHERE document_chunks_fts MATCH w.value
				AND rowid BETWEEN c.doc_seq * 4096 AND c.doc_seq * 4096 + 4095))`
}

// matchWords are the words documentMatch looks for one by one: f's Words,
// or, for a match not split into words, the whole match as one (all of it
// in the title or in one chunk). With none, every large body would match.
func matchWords(f app.ItemFilter) []string {
	if len(f.Words) == 0 {
		return []string{f.Match}
	}
	return f.Words
}

// documentExcluded is the condition that leaves out the documents (aliased
// a) holding any excluded word: in documents_fts, or in a chunk of a body
// fully indexed.
func documentExcluded(b *itemQuery, a, exclude string) string {
	ex := b.arg(exclude)
	return a + ".seq NOT IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH " + ex + ")" +
		" AND " + a + ".seq NOT IN (SELECT rowid / 4096 FROM document_chunks_fts WHERE document_chunks_fts MATCH " + ex +
		" AND rowid / 4096 IN (SELECT doc_seq FROM document_chunking WHERE next IS NULL))"
}
