-- A search reads the texts of the sections it returns, not of every section it ranks.
-- search_ranked gave each ranked section its text, and a search ranks more sections than
-- it returns (twice as many, before a page's later sections are discounted, and those of
-- the partial tiers): reading and passing on those texts, most of them long and
-- compressed, was most of what a slow search cost. It now ranks without them, and the
-- server reads the texts of the hits it keeps (search.ts). Texts written from now on are
-- stored uncompressed (a page pushed or indexed again rewrites its own): a hit's text is
-- read whole for its snippet, and decompressing it cost more than the bytes it saves.
ALTER TABLE search_section_texts ALTER COLUMN text SET STORAGE EXTERNAL;

CREATE OR REPLACE FUNCTION search_ranked(
  p_organisation text, p_sources text[], p_match tsquery, p_index tsquery, p_queries tsquery[], p_weights float8[],
  p_phrase tsquery, p_exclude text[], p_limit integer, p_heading_candidates integer, p_headings_enough integer,
  p_body_candidates integer, p_tier integer
) RETURNS jsonb LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN (
    WITH heading_candidate AS MATERIALIZED (
      SELECT id, page_id, source_id, url, position, title, path, document FROM search_sections
        WHERE organisation_id = p_organisation AND source_id = ANY (p_sources) AND heading @@ p_match
          AND NOT (id = ANY (p_exclude))
        LIMIT p_heading_candidates
    ),
    candidate AS (
      SELECT * FROM heading_candidate
      UNION ALL
      (SELECT * FROM search_body_matches(0, p_organisation, p_sources, p_match, p_index, p_exclude)
       UNION ALL SELECT * FROM search_body_matches(1, p_organisation, p_sources, p_match, p_index, p_exclude)
       UNION ALL SELECT * FROM search_body_matches(2, p_organisation, p_sources, p_match, p_index, p_exclude)
       UNION ALL SELECT * FROM search_body_matches(3, p_organisation, p_sources, p_match, p_index, p_exclude)
        LIMIT CASE WHEN (SELECT count(*) FROM heading_candidate) >= p_headings_enough THEN 0 ELSE p_body_candidates END)
    ),
    scored AS (
      SELECT candidate.id, candidate.page_id, candidate.source_id, candidate.url, candidate.position, candidate.title, candidate.path,
             (
                 coalesce(p_weights[1] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[1], 1), 0)
               + coalesce(p_weights[2] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[2], 1), 0)
               + coalesce(p_weights[3] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[3], 1), 0)
               + coalesce(p_weights[4] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[4], 1), 0)
               + coalesce(p_weights[5] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[5], 1), 0)
               + coalesce(p_weights[6] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[6], 1), 0)
               + coalesce(p_weights[7] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[7], 1), 0)
               + coalesce(p_weights[8] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[8], 1), 0)
               + coalesce(p_weights[9] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[9], 1), 0)
               + coalesce(p_weights[10] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[10], 1), 0)
               + coalesce(p_weights[11] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[11], 1), 0)
               + coalesce(p_weights[12] * ts_rank('{0.1, 0.2, 0.5, 1.0}', candidate.document, p_queries[12], 1), 0)
             ) * CASE WHEN candidate.document @@ p_phrase THEN 1.3 ELSE 1 END AS score
        FROM candidate
       ORDER BY score DESC, candidate.url COLLATE "C", candidate.position, candidate.source_id COLLATE "C"
       LIMIT p_limit
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
             'id', scored.id, 'pageId', scored.page_id, 'source', scored.source_id, 'url', scored.url,
             'position', scored.position, 'title', scored.title, 'path', scored.path, 'score', scored.score,
             'tier', p_tier)
             ORDER BY scored.score DESC, scored.url COLLATE "C", scored.position, scored.source_id COLLATE "C"), '[]'::jsonb)
      FROM scored
  );
END $$;
