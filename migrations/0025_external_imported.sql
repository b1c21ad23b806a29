-- Issue 34 §1: importing the same file again keeps what was changed in
-- tend. A field follows the file only where the file's value changed since
-- the last import of that item, so the import keeps, beside each id of
-- another tool, the values it last read from the file for that item: a
-- JSON object of field → value (title, description, tags, status, ...;
-- a comment's body). NULL for rows written before this migration: such
-- an item has no record, and a re-import keeps tend's value of every field
-- that differs from the file's, reporting it as a conflict.
ALTER TABLE external_ids ADD COLUMN imported TEXT CHECK (imported IS NULL OR json_valid(imported));
