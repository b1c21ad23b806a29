-- The credential revision (0006) moved on every update of a token row, so
-- the once-a-minute refresh of last_used_at emptied the credential cache of
-- every token in use. Only the columns a token check decides on move it now;
-- last_used_at is bookkeeping and no check reads it.

DROP TRIGGER tokens_auth_upd;

CREATE TRIGGER tokens_auth_upd AFTER UPDATE OF prefix, hash, kind, title, user_id, issued_by, issued_by_token,
    scopes, workspace_id, project_scope, project_write_scope, expires_at, revoked_at, created_at ON tokens BEGIN
    UPDATE instance SET auth_rev = auth_rev + 1;
END;
