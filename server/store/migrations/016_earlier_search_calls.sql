-- search_run as the releases before 015_joined_words.sql call it, with 16 arguments. On one
-- PostgreSQL shared by several server processes, a rolling update leaves processes of the
-- earlier release serving beside the new ones until each is replaced: 015 took their form of
-- search_run away, and each of their searches failed. This form runs today's search with no
-- word joined, split or hyphenated, as those releases searched. It depends on today's form,
-- so a migration cannot drop that one without replacing this one too, and one that replaces
-- search_run again keeps the forms the releases still running call.
CREATE FUNCTION search_run(
  p_organisation text, p_sources text[], p_languages text[],
  p_words text[], p_kinds text[], p_max_edits integer[], p_swap_groups integer[], p_swaps text[],
  p_nearby_groups integer[], p_nearby text[], p_phrase text, p_enough integer, p_wanted integer,
  p_heading_candidates integer, p_headings_enough integer, p_body_candidates integer
) RETURNS jsonb LANGUAGE sql STABLE
RETURN search_run(p_organisation, p_sources, p_languages, p_words, p_kinds, p_max_edits, p_swap_groups, p_swaps,
                  p_nearby_groups, p_nearby, p_phrase, p_enough, p_wanted, p_heading_candidates, p_headings_enough,
                  p_body_candidates, '{}'::text[], '{}'::text[]);
