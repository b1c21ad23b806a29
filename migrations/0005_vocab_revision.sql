-- A workspace's vocabulary revision moves whenever one of its statuses,
-- item types or link types is added, changed or removed. Readers key a cache
-- of the vocabulary on it, exactly as scope_rev keys the project tree: a
-- request that changes none of these reads the vocabulary from memory, and
-- the revision, read in the request's own snapshot, never lets a stale copy
-- through. Triggers keep it, so no write path can forget to.

ALTER TABLE workspaces ADD COLUMN vocab_rev INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER statuses_vocab_ins AFTER INSERT ON statuses BEGIN
    UPDATE workspaces SET vocab_rev = vocab_rev + 1 WHERE id = NEW.workspace_id;
END;
CREATE TRIGGER statuses_vocab_upd AFTER UPDATE ON statuses BEGIN
    UPDATE workspaces SET vocab_rev = vocab_rev + 1 WHERE id IN (OLD.workspace_id, NEW.workspace_id);
END;
CREATE TRIGGER statuses_vocab_del AFTER DELETE ON statuses BEGIN
    UPDATE workspaces SET vocab_rev = vocab_rev + 1 WHERE id = OLD.workspace_id;
END;

CREATE TRIGGER item_types_vocab_ins AFTER INSERT ON item_types BEGIN
    UPDATE workspaces SET vocab_rev = vocab_rev + 1 WHERE id = NEW.workspace_id;
END;
CREATE TRIGGER item_types_vocab_upd AFTER UPDATE ON item_types BEGIN
    UPDATE workspaces SET vocab_rev = vocab_rev + 1 WHERE id IN (OLD.workspace_id, NEW.workspace_id);
END;
CREATE TRIGGER item_types_vocab_del AFTER DELETE ON item_types BEGIN
    UPDATE workspaces SET vocab_rev = vocab_rev + 1 WHERE id = OLD.workspace_id;
END;

CREATE TRIGGER link_types_vocab_ins AFTER INSERT ON link_types BEGIN
    UPDATE workspaces SET vocab_rev = vocab_rev + 1 WHERE id = NEW.workspace_id;
END;
CREATE TRIGGER link_types_vocab_upd AFTER UPDATE ON link_types BEGIN
    UPDATE workspaces SET vocab_rev = vocab_rev + 1 WHERE id IN (OLD.workspace_id, NEW.workspace_id);
END;
CREATE TRIGGER link_types_vocab_del AFTER DELETE ON link_types BEGIN
    UPDATE workspaces SET vocab_rev = vocab_rev + 1 WHERE id = OLD.workspace_id;
END;
