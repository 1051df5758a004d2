-- A search for what a page, an API entry or a section is named finds it first (search.ts,
-- namedSections): "threading" finds "threading — Thread-based parallelism", "zip" the entry
-- `zip(*iterables, strict=False)`, "generators" the section "9.9. Generators", though hundreds
-- of sections of other pages say the word in their headings and ranking by words may leave
-- these out. Each is looked up in an index of its own, so a search finds them at once however
-- many pages there are. Names are at most 200 characters.
--
-- A heading's name is the heading without a chapter's or section's number ("Chapter 26. ",
-- "26.1. ", "F.2. ", "II. ").
CREATE FUNCTION search_heading_name(p_heading text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN regexp_replace(p_heading, '^\s*(?:(?:[Cc]hapter|[Aa]ppendix|[Pp]art)\s+)?(?:[A-Z]|[0-9]+|[IVXLC]+)(?:\.[0-9]+)*\.\s+', '');
-- A page's name is its title's, without what follows a dash or a colon (what the named thing
-- is: "VACUUM — garbage-collect and optionally analyze a database"), lowercased, one space
-- between words. The first section of each page, which holds the title, is indexed by it. (A
-- body written as SQL's RETURN is bound when the function is made: an index's expression is
-- computed with a search path of the system's functions only, from PostgreSQL 17 on.)
CREATE FUNCTION search_page_name(p_title text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN left(lower(regexp_replace(regexp_replace(search_heading_name(p_title), '(?:\s+[—–-]\s|:\s).*$', ''), '\s+', ' ', 'g')), 200);
CREATE INDEX search_sections_page_name ON search_sections (organisation_id, search_page_name(title)) WHERE position = 0;

-- Written by the indexer (INDEX_VERSION 3), which indexes the pages written before it again at
-- start:
-- `heading_key`: a section's own heading (the title, for a page's opening) as the stems of its
--   name, sorted and space-separated ("generat" for "9.9. Generators", "except handl" for
--   "Handling Exceptions"): a query of the same stems names it. Empty for a heading naming an
--   identifier ("foreign_data_wrappers") or a view ("37.44. sequences"), whose words are not
--   what it is about.
-- `entry_name`: the unqualified name an API entry's heading gives ("zip", "super", "work_mem"),
--   lowercased; empty for other headings and for a member under its class's entry.
ALTER TABLE search_sections ADD COLUMN heading_key text NOT NULL DEFAULT '';
ALTER TABLE search_sections ADD COLUMN entry_name text NOT NULL DEFAULT '';
CREATE INDEX search_sections_heading_key ON search_sections (organisation_id, heading_key) WHERE heading_key <> '';
CREATE INDEX search_sections_entry_name ON search_sections (organisation_id, entry_name) WHERE entry_name <> '';
