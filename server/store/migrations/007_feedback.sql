-- Visitors' ratings of answers, and the question a summary answered.

-- A summary has no conversation to hold its question (a chat answer's question is the
-- visitor message before it, and goes when the conversation is deleted); the owner needs it
-- to see what an unhelpful summary was asked. The query is kept in search_queries anyway.
ALTER TABLE answers ADD COLUMN question text;

-- One rating per answer: a later one from the same session replaces it. Only the session
-- that received the answer may rate it (checked by the events route).
CREATE TABLE answer_feedback (
  answer_id text PRIMARY KEY REFERENCES answers (id) ON DELETE CASCADE,
  organisation_id text NOT NULL,
  widget_id text NOT NULL,
  session_id text NOT NULL,
  value text NOT NULL CHECK (value IN ('helpful', 'unhelpful')),
  comment text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (organisation_id, widget_id) REFERENCES widgets (organisation_id, id) ON DELETE CASCADE
);
CREATE INDEX answer_feedback_widget_time ON answer_feedback (organisation_id, widget_id, updated_at);
