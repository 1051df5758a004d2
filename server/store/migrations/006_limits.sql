-- Limits that hold across every server process on one database.

-- Requests per client address and widget in fixed one-minute windows (`window_index` is
-- minutes since 1970), one row per key and minute; rows of past minutes are deleted.
CREATE TABLE rate_limit_windows (
  bucket text NOT NULL,
  window_index bigint NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (bucket, window_index)
);

-- How many analytics events an organisation may store per day (UTC); beyond it they are dropped.
ALTER TABLE organisations ADD COLUMN events_per_day integer NOT NULL DEFAULT 100000 CHECK (events_per_day >= 0);

-- Events per organisation and day (UTC): how many were stored and dropped, and how many the
-- latest request stored (read back by that request in the same statement).
CREATE TABLE organisation_event_days (
  organisation_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  day date NOT NULL,
  stored bigint NOT NULL,
  dropped bigint NOT NULL,
  last_stored integer NOT NULL,
  PRIMARY KEY (organisation_id, day)
);

-- Admin tokens the server made itself (the demo's first start); only their SHA-256 hashes.
CREATE TABLE admin_tokens (
  token_hash text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The demo fixture once created the API key ak_demo_local_only with every permission, which
-- anyone reaching a demo server could read in this repository; databases made then lose it.
UPDATE api_keys SET revoked_at = now() WHERE key_hash = '37f2e129f683606ca2ae3b7cc3486f36ca87a6532a816e699af048784783cca4' AND revoked_at IS NULL;
