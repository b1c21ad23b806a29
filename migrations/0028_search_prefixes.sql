-- Issue 34 §5: the word being typed matches as a prefix ("pass" finds
-- "passport", app/search.go). FTS5 answers a prefix query from its main
-- index by reading every term that starts with it; a prefix index keeps
-- the tokens' first 2, 3 and 4 characters as terms of their own, so a
-- short prefix, which starts many terms, is one term's doclist instead.
-- The option is fixed when the table is made: both text indexes of whole
-- rows are made again and rebuilt from their content. The chunks of large
-- bodies (document_chunks_fts) are contentless and cannot be rebuilt; a
-- prefix query reads their main index.
--
-- 'rebuild' on tasks_fts indexes the rows still pending as well, so the
-- queue is emptied here (migration 0023). The triggers name the tables and
-- find the new ones.
DROP TABLE tasks_fts;
CREATE VIRTUAL TABLE tasks_fts USING fts5 (
    title, description, content = 'tasks', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4'
);
INSERT INTO tasks_fts (tasks_fts) VALUES ('rebuild');
DELETE FROM tasks_unindexed;

DROP TABLE documents_fts;
CREATE VIRTUAL TABLE documents_fts USING fts5 (
    title, body, content = 'documents_indexed', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4'
);
INSERT INTO documents_fts (documents_fts) VALUES ('rebuild');
