-- Issue 25 §2: a task create committed alone wrote about 25 pages to the
-- log, five of them FTS5's (a new segment, the structure record, its idx
-- entry, the docsize row) for the one row it indexed. Now the create does
-- not touch tasks_fts: the insert trigger records the task's seq in
-- tasks_unindexed, and the text is indexed later, many rows a
-- transaction, by app/task_index.go: by the worker once enough creates
-- wait or the writes go quiet, at start for rows a stopped server left, and
-- by any read that matches tasks_fts when rows are pending, before it
-- reads (docs/api.md, "Work done in steps"). Search results are as before:
-- a task is found by any search that starts after its create returned.
--
-- tasks_fts is external content: its 'delete' must be given exactly the
-- values it indexed, and a row still pending was never indexed. So the
-- delete trigger of a pending row only takes it off the queue, and the
-- update trigger of a pending row does nothing (the indexer reads the text
-- as it is then). Anything that runs 'rebuild' on tasks_fts indexes the
-- pending rows as well and must empty tasks_unindexed in the same
-- transaction; 'integrity-check' against the content sees the pending rows
-- missing until they are indexed.
--
-- Every task of an existing database is indexed already: none is pending.
DROP TRIGGER tasks_fts_ins;
DROP TRIGGER tasks_fts_del;
DROP TRIGGER tasks_fts_upd;

CREATE TABLE tasks_unindexed (seq INTEGER PRIMARY KEY) STRICT;

CREATE TRIGGER tasks_fts_ins AFTER INSERT ON tasks BEGIN
    INSERT INTO tasks_unindexed (seq) VALUES (NEW.seq);
END;
CREATE TRIGGER tasks_fts_del AFTER DELETE ON tasks BEGIN
    INSERT INTO tasks_fts (tasks_fts, rowid, title, description)
    SELECT 'delete', OLD.seq, OLD.title, OLD.description
    WHERE NOT EXISTS (SELECT 1 FROM tasks_unindexed WHERE seq = OLD.seq);
    DELETE FROM tasks_unindexed WHERE seq = OLD.seq;
END;
CREATE TRIGGER tasks_fts_upd AFTER UPDATE OF title, description ON tasks
WHEN (OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description)
    AND NOT EXISTS (SELECT 1 FROM tasks_unindexed WHERE seq = OLD.seq) BEGIN
    INSERT INTO tasks_fts (tasks_fts, rowid, title, description) VALUES ('delete', OLD.seq, OLD.title, OLD.description);
    INSERT INTO tasks_fts (rowid, title, description) VALUES (NEW.seq, NEW.title, NEW.description);
END;
