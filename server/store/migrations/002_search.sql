-- Search: pages split into sections at their headings, each with a weighted tsvector; the
-- words of every organisation (for typo correction); the text-search configurations in use
-- per source; and the searches made through widgets (analytics).
-- Written for PostgreSQL 15 and PGlite (PostgreSQL 18) alike.

-- One row per section of a page (server/search/sections.ts). Page title and url are copied
-- in, so a search reads nothing else; every page write rewrites its rows. `document`: title
-- (A), heading path (B), the section's first paragraph (C), the rest (D), stemmed with the
-- page language's configuration. Rows stay narrow (the text lives in search_section_texts),
-- so ranking reads small uncompressed tsvectors instead of detoasting wide rows.
CREATE TABLE search_sections (
  id text PRIMARY KEY,
  page_id text NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  organisation_id text NOT NULL,
  source_id text NOT NULL,
  position integer NOT NULL,
  url text NOT NULL,
  title text NOT NULL,
  path text NOT NULL DEFAULT '',
  document tsvector NOT NULL
);
-- fastupdate off: PGlite runs no autovacuum, so a GIN pending list would only ever grow
-- and be scanned linearly by every search until it reached its size limit.
CREATE INDEX search_sections_document ON search_sections USING gin (document) WITH (fastupdate = off);
CREATE INDEX search_sections_page ON search_sections (page_id);

-- A section's plain text: read for the few hits shown (snippets, answer grounding).
CREATE TABLE search_section_texts (
  id text PRIMARY KEY REFERENCES search_sections (id) ON DELETE CASCADE,
  text text NOT NULL
);

-- The text-search configurations used by each source's pages, so a query can be stemmed
-- the way each of them was. Only ever grows (a stale entry merely adds a query variant).
CREATE TABLE search_configs (
  organisation_id text NOT NULL,
  source_id text NOT NULL,
  config text NOT NULL,
  PRIMARY KEY (organisation_id, source_id, config),
  FOREIGN KEY (organisation_id, source_id) REFERENCES sources (organisation_id, id) ON DELETE CASCADE
);

-- Distinct words of an organisation's pages and in how many pages each occurs: the
-- dictionary that typos are corrected against (trigram index to find candidates, then
-- Levenshtein), and a document frequency, so rare words weigh more than common ones.
-- Kept by the indexer (server/search/indexer.ts), which splits text into words in one
-- place for every path; rows at zero pages are left for the next page that brings the
-- word back.
CREATE TABLE search_vocabulary (
  organisation_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  word text NOT NULL,
  pages integer NOT NULL,
  PRIMARY KEY (organisation_id, word)
);
CREATE INDEX search_vocabulary_trigrams ON search_vocabulary USING gin (word gin_trgm_ops) WITH (fastupdate = off);

-- Sections that went with their page (a page, source or organisation delete cascading
-- here, bypassing the indexer): parked until the next index write takes their words out
-- of the vocabulary. Nothing is parked when the whole organisation is going.
CREATE TABLE search_removed_sections (
  organisation_id text NOT NULL,
  page_id text NOT NULL,
  title text NOT NULL,
  path text NOT NULL,
  text text NOT NULL
);

CREATE FUNCTION search_park_removed_sections() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_removed_sections (organisation_id, page_id, title, path, text)
  SELECT gone.organisation_id, gone.page_id, gone.title, gone.path, gone.text
    FROM gone
   WHERE NOT EXISTS (SELECT 1 FROM pages WHERE pages.id = gone.page_id)
     AND EXISTS (SELECT 1 FROM organisations WHERE organisations.id = gone.organisation_id);
  RETURN NULL;
END $$;

CREATE TRIGGER search_sections_removed AFTER DELETE ON search_sections
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION search_park_removed_sections();

-- Every search made through a widget, for analytics (created by 003 too when missing).
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
