-- Issue 25 §3: no request holds the writer past 50 ms. Deleting a tag
-- applied to 100,000 items took 1.7 s in one transaction. Now the request
-- marks the tag deleted (deleted_at) and renames it out of the way of its
-- name, in one short transaction: from then on every reader treats the tag
-- as gone. A worker in the server then takes its applications off in steps
-- of a thousand rows, each its own transaction, files the tag.deleted
-- event in each project it finds them in (deletion holds that event, as
-- the app wrote it), and removes the row last; a server stopped in the
-- middle finishes at its next start (docs/api.md, "Work done in steps").
ALTER TABLE tags ADD COLUMN deleted_at TEXT;
ALTER TABLE tags ADD COLUMN deletion TEXT;

CREATE INDEX tags_deleting ON tags (deleted_at) WHERE deleted_at IS NOT NULL;
