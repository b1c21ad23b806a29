-- CalDAV (issue 36): the name a task app chose for a list it made. Apple
-- Reminders and macOS send MKCALENDAR to a UUID path of their own and go on
-- using exactly that URL, so the name is kept and the list is served under
-- it. Names are an account's own: another account's same name is another
-- row, and says nothing of this one. A project has one name per account.
CREATE TABLE dav_lists (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT NOT NULL, -- one path segment under the calendar home, as the app sent it
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, name)
) STRICT, WITHOUT ROWID;

CREATE UNIQUE INDEX dav_lists_project ON dav_lists (project_id, user_id);
