-- A search for what a page or a section is named finds it first (search.ts, pagesNamed and
-- sectionsNamed): "threading" finds "threading — Thread-based parallelism", "generators" the
-- section "9.9. Generators", though hundreds of sections of other pages say the word in their
-- headings and ranking by words may leave these out.
--
-- A heading's name is the heading without a chapter's or section's number ("Chapter 26. ",
-- "26.1. ", "F.2. "). A page's name is its title's, without what follows a dash or a colon
-- (what the named thing is: "VACUUM — garbage-collect and optionally analyze a database");
-- lowercased, one space between words, at most 200 characters; the first section of each page,
-- which holds the title, is indexed by it.
CREATE FUNCTION search_heading_name(p_heading text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(p_heading, '^\s*(?:(?:chapter|appendix|part)\s+)?(?:[a-z]|[0-9]+|[ivxlc]+)(?:\.[0-9]+)*\.\s+', '', 'i')
$$;
-- The number is taken off as search_heading_name does, written out again: an index's expression
-- is computed with a search path of the system's functions only (PostgreSQL 17 and later), where
-- search_heading_name is not found.
CREATE FUNCTION search_page_name(p_title text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(lower(regexp_replace(regexp_replace(
    regexp_replace(p_title, '^\s*(?:(?:chapter|appendix|part)\s+)?(?:[a-z]|[0-9]+|[ivxlc]+)(?:\.[0-9]+)*\.\s+', '', 'i'),
    '(?:\s+[—–-]\s|:\s).*$', ''), '\s+', ' ', 'g')), 200)
$$;
CREATE INDEX search_sections_page_name ON search_sections (organisation_id, search_page_name(title)) WHERE position = 0;

-- A section's own heading (the title, for a page's opening) as the stems of its name, sorted
-- and space-separated ("generat" for "9.9. Generators", "except handl" for "Handling
-- Exceptions"): a query of the same stems names it; empty for a heading naming an identifier
-- ("foreign_data_wrappers") or a view ("37.44. sequences"), whose words are not what it is
-- about. Written by the indexer (INDEX_VERSION 3),
-- which indexes the pages written before it again at start.
ALTER TABLE search_sections ADD COLUMN heading_key text NOT NULL DEFAULT '';
CREATE INDEX search_sections_heading_key ON search_sections (organisation_id, heading_key) WHERE heading_key <> '';
