-- Issue 25 §3: no request holds the writer past 50 ms. Indexing a 1 MiB
-- document body in documents_fts took the request that wrote it about
-- 60 ms (the trigger's insert, then FTS5's flush). Now a body over 65,536
-- bytes is not indexed by the write: its documents_fts row holds the
-- title alone, and the worker (app/document_index.go) indexes the body in
-- chunks of at most 65,536 bytes, one a transaction, in
-- document_chunks_fts (docs/api.md, "Work done in steps"). A body at or
-- under the threshold is indexed as before, in the same transaction.
--
-- documents_fts reads its content through documents_indexed, which gives
-- a large body as NULL: the triggers index and delete exactly those values
-- (an FTS5 'delete' with other values than were indexed corrupts the
-- index), and 'rebuild' or 'integrity-check' see the same. Rebuilding it
-- here re-indexes the large bodies indexed whole before.
DROP TRIGGER documents_fts_ins;
DROP TRIGGER documents_fts_del;
DROP TRIGGER documents_fts_upd;
DROP TABLE documents_fts;

CREATE VIEW documents_indexed AS
SELECT seq, title, CASE WHEN octet_length(body) > 65536 THEN NULL ELSE body END AS body FROM documents;

CREATE VIRTUAL TABLE documents_fts USING fts5 (
    title, body, content = 'documents_indexed', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO documents_fts (documents_fts) VALUES ('rebuild');

-- The chunks of large bodies. Contentless: the text is the document's, and
-- with contentless_delete a chunk is deleted by rowid alone, without
-- tokenizing it again. A chunk's rowid is its document's seq * 4096 plus
-- its number, so a document's chunks are one rowid range.
CREATE VIRTUAL TABLE document_chunks_fts USING fts5 (
    body, content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
-- FTS5 merges an index's segments as it writes them, in the transaction
-- that writes, and the merge of a few chunks' segments took a step up to
-- 150 ms; so it does not here, and the worker merges them in bounded steps
-- of its own ('merge', app/document_index.go).
INSERT INTO document_chunks_fts (document_chunks_fts, rank) VALUES ('automerge', 0);
INSERT INTO document_chunks_fts (document_chunks_fts, rank) VALUES ('crisismerge', 2000);

-- One row per document whose body is over the threshold: next is the byte
-- offset of the body where the next chunk starts, NULL once every chunk
-- is indexed; chunks counts those indexed. Until next is NULL, searches
-- find the document by its title only (store/document.go).
CREATE TABLE document_chunking (
    doc_seq INTEGER PRIMARY KEY,
    next    INTEGER,
    chunks  INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX document_chunking_pending ON document_chunking (doc_seq) WHERE next IS NOT NULL;
INSERT INTO document_chunking (doc_seq, next) SELECT seq, 0 FROM documents WHERE octet_length(body) > 65536;

CREATE TRIGGER documents_fts_ins AFTER INSERT ON documents BEGIN
    INSERT INTO documents_fts (rowid, title, body)
    VALUES (NEW.seq, NEW.title, CASE WHEN octet_length(NEW.body) > 65536 THEN NULL ELSE NEW.body END);
    INSERT INTO document_chunking (doc_seq, next) SELECT NEW.seq, 0 WHERE octet_length(NEW.body) > 65536;
END;
CREATE TRIGGER documents_fts_del AFTER DELETE ON documents BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, body)
    VALUES ('delete', OLD.seq, OLD.title, CASE WHEN octet_length(OLD.body) > 65536 THEN NULL ELSE OLD.body END);
    DELETE FROM document_chunks_fts WHERE rowid BETWEEN OLD.seq * 4096 AND OLD.seq * 4096 + 4095
        AND EXISTS (SELECT 1 FROM document_chunking WHERE doc_seq = OLD.seq);
    DELETE FROM document_chunking WHERE doc_seq = OLD.seq;
END;
CREATE TRIGGER documents_fts_upd AFTER UPDATE OF title, body ON documents
WHEN OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, body)
    VALUES ('delete', OLD.seq, OLD.title, CASE WHEN octet_length(OLD.body) > 65536 THEN NULL ELSE OLD.body END);
    INSERT INTO documents_fts (rowid, title, body)
    VALUES (NEW.seq, NEW.title, CASE WHEN octet_length(NEW.body) > 65536 THEN NULL ELSE NEW.body END);
END;
-- A new body starts its chunks over: the old ones go (by rowid, cheaply),
-- and a large new body is queued for the worker.
CREATE TRIGGER documents_chunks_upd AFTER UPDATE OF body ON documents
WHEN OLD.body IS NOT NEW.body BEGIN
    DELETE FROM document_chunks_fts WHERE rowid BETWEEN OLD.seq * 4096 AND OLD.seq * 4096 + 4095
        AND EXISTS (SELECT 1 FROM document_chunking WHERE doc_seq = OLD.seq);
    DELETE FROM document_chunking WHERE doc_seq = OLD.seq;
    INSERT INTO document_chunking (doc_seq, next) SELECT NEW.seq, 0 WHERE octet_length(NEW.body) > 65536;
END;
