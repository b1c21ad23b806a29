-- Issue 25 §3: no request holds the writer past 50 ms. Renaming a tag (or
-- changing its meaning) is one row, but a tag made by use is told of in
-- each project it is applied in, and finding those took reading every
-- application: 600 ms on 100,000. Now the request changes the row at once
-- and, for such a tag, keeps the event here; the worker reads the tag's
-- applications a thousand at a time (after_task, then after_document: the
-- last item read), files the event once in each project it comes upon
-- (filed lists them), and removes the row when it has read them all. A
-- server stopped in the middle finishes at its next start (docs/api.md,
-- "Work done in steps").
CREATE TABLE tag_notices (
    seq            INTEGER PRIMARY KEY,
    tag_id         TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    event          TEXT NOT NULL,
    after_task     TEXT NOT NULL DEFAULT '',
    after_document TEXT,
    filed          TEXT NOT NULL DEFAULT '[]'
) STRICT;
CREATE INDEX tag_notices_tag ON tag_notices (tag_id);
