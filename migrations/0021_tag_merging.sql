-- Issue 25 §3: no request holds the writer past 50 ms. Renaming a tag onto
-- the name of a tag the caller cannot see merges the two, and moving every
-- application of the hidden tag took one transaction however many there
-- were. Now the request marks the hidden tag deleted, as a deletion does
-- (0017), and merged into the renamed tag: from then on every read counts
-- an application of it as one of the tag it is merged into, and the
-- worker moves the applications over in steps, filing the tag.deleted
-- event as it goes (docs/api.md, "Work done in steps").
ALTER TABLE tags ADD COLUMN merged_into TEXT;

CREATE INDEX tags_merging ON tags (merged_into) WHERE merged_into IS NOT NULL;
