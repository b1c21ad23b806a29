-- Passkeys (issue 38 §2): WebAuthn credentials a person signs in with,
-- and the challenges of ceremonies under way.
--
-- A passkey is a person's own: credential_id is what the authenticator
-- names it by (unique across the instance, so a sign-in finds its row
-- from the assertion alone), public_key its COSE key. sign_count and the
-- flags are what the next assertion is checked against: a count that does
-- not rise means a cloned authenticator, and backup eligibility may not
-- change. No secret is kept: the private key never leaves the
-- authenticator. An export still leaves the table out, as it does
-- sessions: a passkey is a way into this server, not the work.
CREATE TABLE passkeys (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (id),
    credential_id    BLOB NOT NULL UNIQUE,
    public_key       BLOB NOT NULL,
    sign_count       INTEGER NOT NULL DEFAULT 0,
    backup_eligible  INTEGER NOT NULL DEFAULT 0,
    backup_state     INTEGER NOT NULL DEFAULT 0,
    user_verified    INTEGER NOT NULL DEFAULT 0,
    attestation_type TEXT NOT NULL DEFAULT '',
    attestation_fmt  TEXT NOT NULL DEFAULT '',
    transports       TEXT NOT NULL DEFAULT '',   -- space-separated: "internal hybrid"
    aaguid           BLOB,
    name             TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    last_used_at     TEXT
) STRICT;

CREATE INDEX passkeys_user ON passkeys (user_id, created_at);

-- A ceremony under way: what the library's SessionData holds between the
-- options handed to the browser and the answer it posts back, as JSON.
-- id_hash is the SHA-256 of the random id handed to the browser with the
-- options (the id itself is never stored). A challenge lives five minutes
-- and is deleted on its first use, whatever that use's outcome; user_id is
-- the person registering, NULL for a sign-in.
CREATE TABLE webauthn_challenges (
    id_hash    BLOB PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('register', 'signin')),
    user_id    TEXT REFERENCES users (id),
    session    TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;

CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);
