-- Answers (chat and summaries, with what each cost), conversations and their messages,
-- and analytics events (clicks).

-- Searches are recorded by the search route (002_search.sql creates this table with these
-- columns); created here too when missing, so analytics can always read it.
CREATE TABLE IF NOT EXISTS search_queries (
  id text PRIMARY KEY,
  organisation_id text NOT NULL,
  widget_id text NOT NULL,
  session_id text,
  query text NOT NULL,
  hit_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS search_queries_widget_time ON search_queries (organisation_id, widget_id, created_at);

-- A conversation belongs to one widget, and to one signed visitor (visitor_key: the SHA-256
-- hex of the visitor id) or to nobody (anonymous: continued by its id, never listed). Not
-- kept, it expires 30 days after its last message.
CREATE TABLE conversations (
  id text PRIMARY KEY,
  organisation_id text NOT NULL,
  widget_id text NOT NULL,
  visitor_key text,
  title text NOT NULL,
  kept boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_message_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (organisation_id, widget_id) REFERENCES widgets (organisation_id, id) ON DELETE CASCADE
);
CREATE INDEX conversations_visitor ON conversations (organisation_id, widget_id, visitor_key, last_message_at DESC)
  WHERE visitor_key IS NOT NULL;
CREATE INDEX conversations_expiry ON conversations (last_message_at) WHERE NOT kept;

-- An assistant message is written as incomplete when its answer starts and marked complete
-- only when the answer is; a stream cut short (client gone, server stopped) stays incomplete.
CREATE TABLE messages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('user', 'assistant')),
  text text NOT NULL,
  answer_id text,
  sources jsonb,
  complete boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX messages_conversation ON messages (conversation_id, id);

-- One row per chat answer or summary. No text and no link to the conversation's messages:
-- deleting a conversation deletes what the visitor said; the counts stay for analytics.
CREATE TABLE answers (
  id text PRIMARY KEY,
  organisation_id text NOT NULL,
  widget_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('chat', 'summary')),
  session_id text NOT NULL,
  status text NOT NULL DEFAULT 'generating' CHECK (status IN ('generating', 'complete', 'failed', 'aborted', 'skipped')),
  credit text NOT NULL DEFAULT 'spent' CHECK (credit IN ('spent', 'refunded')),
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  FOREIGN KEY (organisation_id, widget_id) REFERENCES widgets (organisation_id, id) ON DELETE CASCADE
);
CREATE INDEX answers_widget_time ON answers (organisation_id, widget_id, created_at);

CREATE TABLE analytics_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organisation_id text NOT NULL,
  widget_id text NOT NULL,
  session_id text NOT NULL,
  query_id text,
  name text NOT NULL,
  url text NOT NULL,
  rank integer,
  source text,
  client_time timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (organisation_id, widget_id) REFERENCES widgets (organisation_id, id) ON DELETE CASCADE
);
CREATE INDEX analytics_events_widget_time ON analytics_events (organisation_id, widget_id, created_at);
CREATE INDEX analytics_events_query ON analytics_events (query_id) WHERE query_id IS NOT NULL;
