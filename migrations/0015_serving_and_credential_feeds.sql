-- Issue 19, two small changes.
--
-- Where tend serve last listened and the public URL it was given, kept on
-- the instance each time it starts, so that tend signin, run later on the
-- same file, prints a link to the server that is really there rather than
-- to a fixed 127.0.0.1:8421. Empty until the first serve that records them.
ALTER TABLE instance ADD COLUMN served_addr TEXT NOT NULL DEFAULT '';
ALTER TABLE instance ADD COLUMN public_url TEXT NOT NULL DEFAULT '';

-- A calendar feed now ends when the credential that created it is revoked
-- (app/token.go RevokeToken). Feeds whose credential was revoked before
-- this revision end now, at the moment their credential did; the index
-- finds a credential's feeds when it is revoked.
UPDATE calendars SET revoked_at = (SELECT k.revoked_at FROM tokens k WHERE k.id = calendars.created_by_token)
WHERE revoked_at IS NULL AND created_by_token IN (SELECT id FROM tokens WHERE revoked_at IS NOT NULL);

CREATE INDEX calendars_created_by_token ON calendars (created_by_token) WHERE created_by_token IS NOT NULL;
