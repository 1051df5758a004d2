-- A search for what a page is named finds that page first (search.ts, pagesNamed): "threading"
-- finds "threading — Thread-based parallelism", though hundreds of sections of other pages say
-- "thread" in their headings and ranking by words may leave the page out. A page's name is read
-- from its title, without a chapter's or section's number ("Chapter 26. ", "26.1. ", "F.2. ") and
-- without what follows a dash or a colon (what the named thing is); lowercased, one space between
-- words, at most 200 characters. The name of each page's first section, which holds its title, is
-- indexed, so a search looks it up at once however many pages there are.
CREATE FUNCTION search_page_name(p_title text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(lower(regexp_replace(regexp_replace(regexp_replace(p_title,
    '^\s*(?:(?:chapter|appendix|part)\s+)?(?:[a-z]|[0-9]+|[ivxlc]+)(?:\.[0-9]+)*\.\s+', '', 'i'),
    '(?:\s+[—–-]\s|:\s).*$', ''), '\s+', ' ', 'g')), 200)
$$;
CREATE INDEX search_sections_page_name ON search_sections (organisation_id, search_page_name(title)) WHERE position = 0;
