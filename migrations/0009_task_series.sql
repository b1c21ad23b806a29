-- Repeating work: each occurrence is its own task, and the occurrences of
-- one repeat share a series. repeat_rule (from 0002) holds the rule's
-- canonical text, DTSTART and the from-completion mark included; the
-- occurrence number counts the series from 1 so that a bounded series
-- ("for 5 times") knows when it ends, and the unique index makes sure a
-- completion or a skip brings one next occurrence, never two.
-- series_values holds, as a JSON object, the series' own value of each
-- field changed for this occurrence only (applies_to this_one): the next
-- occurrence is copied from this record with those values put back.

ALTER TABLE tasks ADD COLUMN series_id TEXT;
ALTER TABLE tasks ADD COLUMN occurrence INTEGER;
ALTER TABLE tasks ADD COLUMN series_values TEXT;

CREATE UNIQUE INDEX tasks_series_occurrence ON tasks (series_id, occurrence) WHERE series_id IS NOT NULL;
