-- A section's body as written (markdown with fenced code and its language), beside its
-- plain text: answers quote code from it byte for byte. Sections written before this
-- column existed have it empty until their page is written again; answers then quote the
-- plain text.
ALTER TABLE search_section_texts ADD COLUMN markdown text NOT NULL DEFAULT '';
