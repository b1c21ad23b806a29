-- Coming back without the administrator (issue 38 §2): sessions as a
-- person's devices, device links, Tailscale identity.
--
-- A session remembers how it began (via) and the browser's User-Agent
-- header as it was sent, so the Account page can list it as a device a
-- person recognises ("Firefox on Linux, signed in with a link"). No
-- address is kept: a list of where someone was is more than the list of
-- devices needs. Sessions from before this migration began with a link.
ALTER TABLE sessions ADD COLUMN via TEXT NOT NULL DEFAULT 'link'
    CHECK (via IN ('link', 'device_link', 'invite', 'passkey', 'tailscale'));
ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';

-- A sign-in link minted by a signed-in person for another device of their
-- own (a device link) lives ten minutes, not fifteen, and the session it
-- opens says so. Still only the hash of its secret is stored.
ALTER TABLE login_links ADD COLUMN via TEXT NOT NULL DEFAULT 'link' CHECK (via IN ('link', 'device_link'));

-- The login Tailscale vouches for (the Tailscale-User-Login header that
-- `tailscale serve` adds), stored case-folded; one account per login.
ALTER TABLE users ADD COLUMN tailscale_login TEXT;
CREATE UNIQUE INDEX users_tailscale_login ON users (tailscale_login) WHERE tailscale_login IS NOT NULL;

-- How long a session lasts unused, in days (an instance setting, PATCH
-- /v1/instance); each use slides it.
ALTER TABLE instance ADD COLUMN session_idle_days INTEGER NOT NULL DEFAULT 30 CHECK (session_idle_days BETWEEN 1 AND 365);
