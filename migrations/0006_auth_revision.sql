-- The instance's credential revision moves whenever a token, an account or
-- a project's key changes or goes. The token check keys a cache of checked
-- credentials on it: a request whose credential and accounts have not
-- changed since the last check reads this one row instead of four tables,
-- and a revocation or a deactivation still takes effect on the very next
-- request, because it moves the revision in its own transaction. Triggers
-- keep it, so no write path can forget to.

ALTER TABLE instance ADD COLUMN auth_rev INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER tokens_auth_upd AFTER UPDATE ON tokens BEGIN
    UPDATE instance SET auth_rev = auth_rev + 1;
END;
CREATE TRIGGER tokens_auth_del AFTER DELETE ON tokens BEGIN
    UPDATE instance SET auth_rev = auth_rev + 1;
END;

CREATE TRIGGER users_auth_upd AFTER UPDATE ON users BEGIN
    UPDATE instance SET auth_rev = auth_rev + 1;
END;
CREATE TRIGGER users_auth_del AFTER DELETE ON users BEGIN
    UPDATE instance SET auth_rev = auth_rev + 1;
END;

CREATE TRIGGER projects_auth_key AFTER UPDATE OF key ON projects BEGIN
    UPDATE instance SET auth_rev = auth_rev + 1;
END;
CREATE TRIGGER projects_auth_del AFTER DELETE ON projects BEGIN
    UPDATE instance SET auth_rev = auth_rev + 1;
END;
