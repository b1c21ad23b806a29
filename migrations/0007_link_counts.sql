-- Every task counts the links that end at it and that start from it, of
-- any type. A listing asks of each task on its page whether open work
-- blocks it and whether it blocks open work; most tasks take part in no
-- link at all, and with the counts the query skips the search for their
-- links instead of descending two link indexes for every row. Triggers keep
-- the counts, so no write path can forget to.

ALTER TABLE tasks ADD COLUMN links_in INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN links_out INTEGER NOT NULL DEFAULT 0;

UPDATE tasks SET
    links_in = (SELECT count(*) FROM links WHERE links.target_id = tasks.id),
    links_out = (SELECT count(*) FROM links WHERE links.source_id = tasks.id)
WHERE id IN (SELECT target_id FROM links UNION SELECT source_id FROM links);

CREATE TRIGGER links_count_ins AFTER INSERT ON links BEGIN
    UPDATE tasks SET links_in = links_in + 1 WHERE NEW.target_type = 'task' AND id = NEW.target_id;
    UPDATE tasks SET links_out = links_out + 1 WHERE NEW.source_type = 'task' AND id = NEW.source_id;
END;
CREATE TRIGGER links_count_del AFTER DELETE ON links BEGIN
    UPDATE tasks SET links_in = links_in - 1 WHERE OLD.target_type = 'task' AND id = OLD.target_id;
    UPDATE tasks SET links_out = links_out - 1 WHERE OLD.source_type = 'task' AND id = OLD.source_id;
END;
