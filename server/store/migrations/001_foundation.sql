-- Organisations, their sources and pages, widgets, API keys and preview tokens.
-- Secrets (API keys, widget secrets, preview tokens) are stored only as SHA-256 hashes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

CREATE TABLE organisations (
  id text PRIMARY KEY,
  name text NOT NULL,
  plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro')),
  credits integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sources (
  organisation_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, id)
);

CREATE TABLE pages (
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  id text PRIMARY KEY,
  organisation_id text NOT NULL,
  source_id text NOT NULL,
  url text NOT NULL,
  title text NOT NULL,
  language text,
  metadata jsonb,
  format text NOT NULL DEFAULT 'markdown',
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (organisation_id, source_id) REFERENCES sources (organisation_id, id) ON DELETE CASCADE,
  UNIQUE (organisation_id, source_id, url)
);
CREATE INDEX pages_source_seq ON pages (organisation_id, source_id, seq);

CREATE TABLE widgets (
  organisation_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  id text NOT NULL,
  type text NOT NULL CHECK (type IN ('chatbot', 'search')),
  name text NOT NULL,
  sources text[] NOT NULL,
  websites text[] NOT NULL DEFAULT '{}',
  secret_hash text NOT NULL,
  signing_secret text NOT NULL,
  previous_signing_secret text,
  previous_signing_secret_until timestamptz,
  config jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organisation_id, id)
);
CREATE UNIQUE INDEX widgets_secret_hash ON widgets (secret_hash);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  organisation_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  permissions text[] NOT NULL,
  sources text[],
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz
);

CREATE TABLE preview_tokens (
  token_hash text PRIMARY KEY,
  organisation_id text NOT NULL,
  widget_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  FOREIGN KEY (organisation_id, widget_id) REFERENCES widgets (organisation_id, id) ON DELETE CASCADE
);
