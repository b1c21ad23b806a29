package background

import (
	"context"
	"unicode/utf8"
)

// Task text indexed after the request (issue 25 §2; docs/api.md, "Work
// done in steps").
//
// Indexing one task's title and description in tasks_fts cost its create
// about five of the 25 pages it wrote to the log, and 13–18 % of its
// server CPU (BENCHMARKS.md): FTS5 writes a segment, its structure record
// and more at every commit, whatever the rows. So a create only queues the
// task (tasks_unindexed, migration 0023) and the text is indexed later,
// many tasks a transaction, by the Worker: in its steps, and first of all
// when a search that finds tasks queued in the database it reads, written
// by this process or another on the same file, waits for it (Hurry).

// TaskIndexTx is what indexing task text needs of a transaction.
type TaskIndexTx interface {
	// TasksUnindexed reports whether any task's text waits to be indexed.
	TasksUnindexed(ctx context.Context) (bool, error)
	// IndexTasks indexes the text of the oldest limit tasks waiting, takes
	// them off the queue, and answers how many it indexed.
	IndexTasks(ctx context.Context, limit int) (int, error)
}

// Large bodies indexed in steps (issue 25 §3; docs/api.md, "Work done in
// steps").
//
// Indexing a 1 MiB body for search held the one writer about 60 ms, and
// FTS5 cannot index one row across transactions. So a body over
// DocumentChunkBytes is not indexed by the request that writes it: the
// store indexes its title alone and queues it (migration 0022), and the
// worker indexes the body as chunks of at most DocumentChunkBytes, one
// chunk a transaction (about 5 ms for 64 KiB). Searches find such a
// document by its title until its last chunk is indexed, then by its body
// as well: every word must be in its title or in some chunk, and no
// excluded word in either. Consecutive chunks overlap by up to
// DocumentChunkOverlap bytes, cut at white space, so a quoted phrase of
// up to that many bytes that straddles a cut is still found.

// DocumentChunkBytes is the largest body indexed with the write that
// writes it, and the largest chunk of a larger one. The store's triggers
// (migrations/0022) hold the same number. Indexing 64 KiB costs the writer
// a few milliseconds (BENCHMARKS.md, "The largest document's body indexed
// in steps").
const DocumentChunkBytes = 65536

// DocumentChunkOverlap is how far a chunk reaches back into the one
// before, so a phrase cut in two is whole in one of them.
const DocumentChunkOverlap = 256

// DocumentChunk is the part of a queued body where its next chunk starts.
type DocumentChunk struct {
	Seq    int64  // the document's seq
	Start  int64  // byte offset of Window in the body
	Number int    // how many chunks are indexed already
	Window []byte // at most DocumentChunkBytes of the body from Start
	Last   bool   // Window reaches the end of the body
}

// DocumentIndexTx is what the document index step needs of a transaction.
type DocumentIndexTx interface {
	// NextDocumentChunk reads where the next chunk of the oldest queued
	// body starts; Seq is 0 when no body is queued.
	NextDocumentChunk(ctx context.Context) (DocumentChunk, error)
	// IndexDocumentChunk indexes text as chunk number n of the document,
	// and queues the body's next chunk at byte next, or with next < 0
	// marks the body indexed.
	IndexDocumentChunk(ctx context.Context, seq int64, n int, text string, next int64) error
	// MergeDocumentChunks does at most pages pages of merging the chunk
	// index's segments, and reports whether there was any to do.
	MergeDocumentChunks(ctx context.Context, pages int) (bool, error)
}

// documentMergePages is how much merging of the chunk index one step does:
// FTS5 would merge as it writes, in the step that writes, and a merge of
// a few chunks' segments then took up to 150 ms; 64 pages take a few ms.
const documentMergePages = 64

// documentChunkSlots is how many chunk rowids a document has (migration
// 0022: seq * 4096 + number); the last one takes the rest of the body.
const documentChunkSlots = 4096

// IndexDocumentStep indexes the next chunk of a queued body, or merges
// some of the chunk index, and reports whether it did either.
func IndexDocumentStep(ctx context.Context, tx DocumentIndexTx) (bool, error) {
	c, err := tx.NextDocumentChunk(ctx)
	if err != nil {
		return false, err
	}
	if c.Seq == 0 {
		// No body left to index: merge what was indexed, a bounded part a
		// step, so that searches read few segments.
		return tx.MergeDocumentChunks(ctx, documentMergePages)
	}
	// The last slot takes what fits and ends the body's index: no body
	// the service takes comes near (a 1 MiB body makes 17 chunks).
	end, next := chunkCut(c.Window, c.Last || c.Number == documentChunkSlots-1)
	if next >= 0 {
		next += c.Start
	}
	return true, tx.IndexDocumentChunk(ctx, c.Seq, c.Number, string(c.Window[:end]), next)
}

// chunkCut reads where a chunk of window ends and where the next one
// starts (offsets into window; next is -1 when last, the window being the
// body's end). A chunk ends after the last white space of the window's
// second half, or at a character boundary when that half has none (a
// body without spaces); the next chunk starts at the first white space in
// the DocumentChunkOverlap bytes before the cut, so words are never split
// at the start of a chunk and a phrase that short across the cut is whole
// in one of the two.
func chunkCut(window []byte, last bool) (end int, next int64) {
	if last {
		return len(window), -1
	}
	end = -1
	for i := len(window) - 1; i >= len(window)/2; i-- {
		if isSpaceByte(window[i]) {
			end = i + 1
			break
		}
	}
	if end < 0 {
		// The window may end inside a character: cut before its last one.
		end = len(window) - 1
		for end > 0 && !utf8.RuneStart(window[end]) {
			end--
		}
		if end == 0 { // not text: any cut makes progress
			end = len(window)
		}
		return end, int64(end)
	}
	for i := max(end-DocumentChunkOverlap, 0); i < end; i++ {
		if isSpaceByte(window[i]) {
			return end, int64(i)
		}
	}
	return end, int64(end)
}

// isSpaceByte reports ASCII white space: a cut there is always between
// characters and between words.
func isSpaceByte(b byte) bool {
	return b == ' ' || b == '\n' || b == '\t' || b == '\r' || b == '\f' || b == '\v'
}
