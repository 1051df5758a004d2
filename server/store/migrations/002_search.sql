-- Search: pages split into sections at their headings, each with weighted tsvectors; how
-- many pages hold each stem and each word (ranking, typo correction); the text-search
-- configurations in use per source; and the searches made through widgets (analytics).
-- Written for PostgreSQL 15 and PGlite (PostgreSQL 18) alike. PGlite runs no autovacuum
-- and keeps no statistics unless told, so nothing here relies on either.

-- One row per section of a page (server/search/sections.ts). Page title and url are copied
-- in, so a search reads nothing else; every page write rewrites its rows.
-- `document`: title (A), heading path (B), the section's first paragraph (C), the rest (D),
--   stemmed with the page language's configuration.
-- `heading`: the title (on the page's first section only) and the heading path: a small
--   vector that finds the sections *about* a word before the many that mention it.
-- Rows stay narrow (the text lives in search_section_texts), so ranking reads small
-- tsvectors instead of detoasting wide rows.
CREATE TABLE search_sections (
  id text PRIMARY KEY,
  page_id text NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  organisation_id text NOT NULL,
  source_id text NOT NULL,
  position integer NOT NULL,
  url text NOT NULL,
  title text NOT NULL,
  path text NOT NULL DEFAULT '',
  heading tsvector NOT NULL,
  document tsvector NOT NULL,
  -- One of four buckets, by page: the body index is split by it (below).
  bucket smallint GENERATED ALWAYS AS (hashtext(page_id) & 3) STORED
);
-- No pending list (fastupdate off): every search would scan it whole, and PGlite, which
-- never vacuums, empties it only when full. A write merges its entries in at once.
-- The body index is four, one per bucket: a search ranks only the first sections the body
-- index gives for a common word, and reading one bucket's posting list, a quarter of the
-- word's, is usually enough to find them (search_body_matches).
CREATE INDEX search_sections_document_0 ON search_sections USING gin (document) WITH (fastupdate = off) WHERE bucket = 0;
CREATE INDEX search_sections_document_1 ON search_sections USING gin (document) WITH (fastupdate = off) WHERE bucket = 1;
CREATE INDEX search_sections_document_2 ON search_sections USING gin (document) WITH (fastupdate = off) WHERE bucket = 2;
CREATE INDEX search_sections_document_3 ON search_sections USING gin (document) WITH (fastupdate = off) WHERE bucket = 3;
CREATE INDEX search_sections_heading ON search_sections USING gin (heading) WITH (fastupdate = off);
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

-- Pages per organisation, and pages per stem (lexeme of `document`): the document
-- frequencies that weigh a rare word of a question above a common one (inverse document
-- frequency). Kept by statement triggers from the tsvectors themselves, so every path that
-- writes or deletes sections (the indexer, a cascading page, source or organisation
-- delete) keeps them exact. `C` collation, so a prefix is a range of the primary key.
CREATE TABLE search_stats (
  organisation_id text PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
  pages integer NOT NULL
);

CREATE TABLE search_lexemes (
  lexeme text COLLATE "C" NOT NULL,
  organisation_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  pages integer NOT NULL,
  PRIMARY KEY (lexeme, organisation_id)
);

-- One function for both triggers: each names its transition table `changed`. Rows are
-- written in key order, so two concurrent writers on PostgreSQL lock shared rows in the
-- same order and cannot deadlock. Organisations being deleted are skipped (their rows go
-- by cascade).
CREATE FUNCTION search_count_sections() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO search_stats (organisation_id, pages)
  SELECT changed.organisation_id, sign * count(*)
    FROM changed JOIN organisations ON organisations.id = changed.organisation_id
   WHERE changed.position = 0
   GROUP BY changed.organisation_id
   ORDER BY changed.organisation_id
  ON CONFLICT (organisation_id) DO UPDATE SET pages = search_stats.pages + excluded.pages;

  INSERT INTO search_lexemes (lexeme, organisation_id, pages)
  SELECT lexeme, changed.organisation_id, sign * count(DISTINCT changed.page_id)
    FROM changed JOIN organisations ON organisations.id = changed.organisation_id,
         unnest(tsvector_to_array(changed.document)) AS lexeme
   GROUP BY lexeme, changed.organisation_id
   ORDER BY lexeme, changed.organisation_id
  ON CONFLICT (lexeme, organisation_id) DO UPDATE SET pages = search_lexemes.pages + excluded.pages;
  RETURN NULL;
END $$;

CREATE TRIGGER search_sections_count_added AFTER INSERT ON search_sections
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_count_sections();
CREATE TRIGGER search_sections_count_removed AFTER DELETE ON search_sections
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION search_count_sections();

-- A word and every spelling of it one letter shorter. Two words one edit apart (a letter
-- changed, added or dropped, or two swapped) always share one of these, so an index over
-- them finds a typo's neighbours from the typo's own deletions, without comparing it with
-- the whole dictionary.
CREATE FUNCTION search_deletions(p_word text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_agg(DISTINCT spelling) FROM (
    SELECT p_word
    UNION ALL
    SELECT overlay(p_word PLACING '' FROM position FOR 1) FROM generate_series(1, length(p_word)) AS position
  ) AS spellings(spelling)
$$;

-- Distinct words of an organisation's pages and in how many pages each occurs: the
-- dictionary that typos are corrected against (deletion neighbourhoods or trigrams to
-- find candidates, then Levenshtein), surface words rather than stems, since people
-- misspell words, not stems. Kept by the indexer (server/search/indexer.ts), which splits
-- text into words in one place for every path; rows at zero pages stay for the next page
-- that brings the word back.
CREATE TABLE search_vocabulary (
  word text COLLATE "C" NOT NULL,
  organisation_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  pages integer NOT NULL,
  deletions text[] GENERATED ALWAYS AS (search_deletions(word)) STORED,
  -- Word first, `C` collation: a lookup names the word or its beginning (a range), and a
  -- planner without statistics (PGlite) is never tempted to read a whole organisation's
  -- words through this index.
  PRIMARY KEY (word, organisation_id)
);
-- fastupdate off: new words are rare once a source is loaded, and a pending list would be
-- scanned by every corrected query.
CREATE INDEX search_vocabulary_deletions ON search_vocabulary USING gin (deletions) WITH (fastupdate = off);
CREATE INDEX search_vocabulary_trigrams ON search_vocabulary USING gin (word gin_trgm_ops) WITH (fastupdate = off);

-- Sections that went with their page (a page, source or organisation delete cascading
-- here, bypassing the indexer): parked until the next index write takes their words out
-- of the vocabulary. Nothing is parked when the whole organisation is going. A row trigger
-- before the delete, because the section's text goes in the same cascade.
CREATE TABLE search_removed_sections (
  organisation_id text NOT NULL,
  page_id text NOT NULL,
  title text NOT NULL,
  path text NOT NULL,
  text text NOT NULL
);

CREATE FUNCTION search_park_removed_section() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pages WHERE pages.id = OLD.page_id)
     AND EXISTS (SELECT 1 FROM organisations WHERE organisations.id = OLD.organisation_id) THEN
    INSERT INTO search_removed_sections (organisation_id, page_id, title, path, text)
    SELECT OLD.organisation_id, OLD.page_id, OLD.title, OLD.path, texts.text
      FROM search_section_texts texts WHERE texts.id = OLD.id;
  END IF;
  RETURN OLD;
END $$;

CREATE TRIGGER search_sections_park_removed BEFORE DELETE ON search_sections
  FOR EACH ROW EXECUTE FUNCTION search_park_removed_section();

-- The search itself, in two functions so that one round trip does it all and PL/pgSQL
-- keeps each statement's plan for the session (planning these statements costs more than
-- running them). server/search/query.ts turns what was typed into words; search.ts
-- explains the ranking. Notices are kept from the client: each stop word of a question
-- ("why", "is", "an") raises one, quoting the whole statement, which costs a search more
-- than resolving a word.

-- OR and AND over tsquery values; an empty query (what a stop word stems to) drops out.
CREATE AGGREGATE search_any(tsquery) (SFUNC = tsquery_or, STYPE = tsquery);
CREATE AGGREGATE search_all(tsquery) (SFUNC = tsquery_and, STYPE = tsquery);

-- Sections of one bucket whose body matches and whose title and headings do not (those are
-- found first, through the heading index). A SQL function the planner inlines, so the
-- bucket is a constant and the bucket's own index is used: the four calls in search_ranked
-- read the buckets in turn, and stop as soon as enough sections are found.
CREATE FUNCTION search_body_matches(
  p_bucket integer, p_organisation text, p_sources text[], p_match tsquery, p_index tsquery, p_exclude text[]
) RETURNS TABLE (id text, page_id text, source_id text, url text, title text, path text, document tsvector)
LANGUAGE sql STABLE AS $$
  SELECT id, page_id, source_id, url, title, path, document FROM search_sections
   WHERE bucket = p_bucket AND organisation_id = p_organisation AND source_id = ANY (p_sources)
     AND document @@ coalesce(p_index, p_match) AND NOT (heading @@ p_match) AND NOT (id = ANY (p_exclude))
     AND (p_index IS NULL OR ts_match_vq(document, p_match))
$$;

-- Sections matching `p_match`, best first, as JSON. Ranking reads a bounded number of
-- candidates: those whose title or headings match first (what a query is usually after),
-- then others that mention the words, so a word on every page costs little more at 100,000
-- pages than at 1,000. When `p_headings_enough` heading matches are found, no others are
-- read: a section that merely mentions the words rarely outranks one about them, and
-- reading the body index is most of a search's cost. `p_index`, when given, is the part of
-- `p_match` that the body index is asked for; the rest is checked on the sections found.
-- Score: for each word (up to 12), its weight (rarity) times ts_rank of the section for
-- that word alone (title 1.0, headings 0.5, first paragraph 0.2, body 0.1; divided by
-- 1 + log2 of the length), times 1.3 when the words stand together as typed. Written out
-- term by term: a subquery over the arrays costs more per section than the ranking itself.
CREATE FUNCTION search_ranked(
  p_organisation text, p_sources text[], p_match tsquery, p_index tsquery, p_queries tsquery[], p_weights float8[],
  p_phrase tsquery, p_exclude text[], p_limit integer, p_heading_candidates integer, p_headings_enough integer,
  p_body_candidates integer, p_tier integer
) RETURNS jsonb LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN (
    WITH heading_candidate AS MATERIALIZED (
      SELECT id, page_id, source_id, url, title, path, document FROM search_sections
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
      SELECT candidate.id, candidate.page_id, candidate.source_id, candidate.url, candidate.title, candidate.path,
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
       ORDER BY score DESC, candidate.id
       LIMIT p_limit
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
             'id', scored.id, 'pageId', scored.page_id, 'source', scored.source_id, 'url', scored.url,
             'title', scored.title, 'path', scored.path, 'score', scored.score, 'text', texts.text, 'tier', p_tier)
             ORDER BY scored.score DESC, scored.id), '[]'::jsonb)
      FROM scored JOIN search_section_texts texts ON texts.id = scored.id
  );
END $$;

-- One search: resolves the words, then ranks up to `p_wanted` sections holding all of them
-- and, when fewer than `p_enough` do, those missing one word, then those holding any
-- ('partial'). Per word (`p_words`, with `p_kinds` plain / prefix / phrase): its stems in
-- every configuration the sources use (and the visitor's), typo corrections from the
-- vocabulary (candidates are the words sharing a deletion neighbourhood with `p_nearby`,
-- the word's own, and only when none of those is close enough, for a word allowed two
-- edits, the trigram index; then Levenshtein, where a swap of two adjacent letters, given
-- as `p_swaps`, counts as one edit; at most three corrections, for a word that exists only
-- neighbours one edit away and twenty times as common, and none for a word on more than a
-- two-hundredth of the pages: one that common is meant), and how many pages hold it, for
-- its weight (BM25's inverse document frequency).
CREATE FUNCTION search_run(
  p_organisation text, p_sources text[], p_languages text[],
  p_words text[], p_kinds text[], p_max_edits integer[], p_swap_groups integer[], p_swaps text[],
  p_nearby_groups integer[], p_nearby text[], p_phrase text, p_enough integer, p_wanted integer,
  p_heading_candidates integer, p_headings_enough integer, p_body_candidates integer
) RETURNS jsonb LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan SET client_min_messages = warning AS $$
DECLARE
  v_configs regconfig[];
  v_count integer;
  v_tier integer;
  v_total integer;
  v_word_pages integer[];
  v_misspelt bigint[];
  v_correction_groups bigint[];
  v_corrections text[];
  v_groups jsonb;
  v_queries tsquery[];
  v_weights float8[];
  v_pages integer[];
  v_prefixes boolean[];
  v_required tsquery[];
  v_match tsquery;
  v_index tsquery;
  v_phrase tsquery;
  v_hits jsonb;
  v_partial jsonb := '[]'::jsonb;
BEGIN
  SELECT array_agg(DISTINCT known.config::regconfig) INTO v_configs
    FROM (SELECT config FROM search_configs WHERE organisation_id = p_organisation AND source_id = ANY (p_sources)
          UNION SELECT unnest(p_languages)) AS known(config);
  IF v_configs IS NULL THEN
    RETURN jsonb_build_object('groups', '[]'::jsonb, 'hits', '[]'::jsonb, 'partial', '[]'::jsonb);
  END IF;
  SELECT coalesce(max(pages), 0) INTO v_total FROM search_stats WHERE organisation_id = p_organisation;

  -- Each word's pages, and which words may be misspelt: a prefix that completes to real
  -- words is a word being typed, not a typo; a word on more than a two-hundredth of the
  -- pages is one the pages use, and looking for its neighbours is a large share of a search.
  SELECT array_agg(coalesce(vocabulary.pages, 0) ORDER BY chunk.grp),
         array_agg(chunk.grp ORDER BY chunk.grp) FILTER (
           WHERE chunk.max_edits > 0 AND coalesce(vocabulary.pages, 0) * 200 <= v_total
             AND NOT (chunk.kind = 'prefix' AND EXISTS (
               SELECT FROM search_vocabulary completion
                WHERE completion.organisation_id = p_organisation AND completion.pages > 0
                  AND completion.word > chunk.word AND completion.word < chunk.word || chr(1114111))))
    INTO v_word_pages, v_misspelt
    FROM unnest(p_words, p_kinds, p_max_edits) WITH ORDINALITY AS chunk(word, kind, max_edits, grp)
    LEFT JOIN search_vocabulary vocabulary ON vocabulary.word = chunk.word AND vocabulary.organisation_id = p_organisation;

  -- Corrections, in a statement of their own: most searches have no word to correct.
  IF v_misspelt IS NOT NULL THEN
    -- A word the pages use is corrected by one edit at most: two would more likely turn a
    -- rare word into another word than mend a typo.
    WITH misspelt AS MATERIALIZED (
      SELECT grp, p_words[grp] AS word, v_word_pages[grp] AS pages,
             CASE WHEN v_word_pages[grp] > 0 THEN least(p_max_edits[grp], 1) ELSE p_max_edits[grp] END AS max_edits
        FROM unnest(v_misspelt) AS grp
    ),
    nearby AS MATERIALIZED (
      SELECT misspelt.grp, neighbour.word, neighbour.pages
        FROM misspelt CROSS JOIN LATERAL (
          SELECT word, pages FROM search_vocabulary
           WHERE organisation_id = p_organisation AND word <> misspelt.word AND pages > 0
             AND deletions && ARRAY(SELECT nearby.word FROM unnest(p_nearby_groups, p_nearby) AS nearby(grp, word)
                                     WHERE nearby.grp = misspelt.grp AND length(nearby.word) >= length(misspelt.word) - misspelt.max_edits)
        ) AS neighbour
    ),
    -- Two edits can be two changed letters, which share no neighbourhood: the trigram index
    -- looks further, for the few words nothing nearby corrects.
    distant AS (
      SELECT misspelt.grp, neighbour.word, neighbour.pages
        FROM misspelt CROSS JOIN LATERAL (
          SELECT word, pages FROM search_vocabulary
           WHERE organisation_id = p_organisation AND word % misspelt.word AND word <> misspelt.word AND pages > 0
        ) AS neighbour
       WHERE misspelt.max_edits > 1 AND NOT EXISTS (
         SELECT FROM nearby WHERE nearby.grp = misspelt.grp AND levenshtein_less_equal(nearby.word, misspelt.word, 2) <= 2)
    ),
    candidate AS (
      SELECT misspelt.grp, found.word, found.pages,
             least(levenshtein_less_equal(found.word, misspelt.word, misspelt.max_edits),
                   1 + coalesce((SELECT min(levenshtein_less_equal(found.word, swap.word, misspelt.max_edits - 1))
                                   FROM unnest(p_swap_groups, p_swaps) AS swap(grp, word)
                                  WHERE swap.grp = misspelt.grp), misspelt.max_edits)) AS distance
        FROM (SELECT * FROM nearby UNION SELECT * FROM distant) AS found JOIN misspelt ON misspelt.grp = found.grp
    ),
    correction AS (
      SELECT candidate.grp, candidate.word,
             row_number() OVER (PARTITION BY candidate.grp ORDER BY candidate.distance, candidate.pages DESC, candidate.word) AS rank
        FROM candidate JOIN misspelt ON misspelt.grp = candidate.grp
       WHERE candidate.distance <= misspelt.max_edits AND (misspelt.pages = 0 OR candidate.pages >= misspelt.pages * 20)
    )
    SELECT array_agg(grp), array_agg(word) INTO v_correction_groups, v_corrections FROM correction WHERE rank <= 3;
  END IF;

  WITH variant AS (
    SELECT grp, word, kind, false AS corrected FROM unnest(p_words, p_kinds) WITH ORDINALITY AS chunk(word, kind, grp)
    UNION ALL
    SELECT grp, word, 'plain', true FROM unnest(v_correction_groups, v_corrections) AS correction(grp, word)
  ),
  -- A word still being typed matches through its stem ("uses" finds "use"), except where the
  -- stem is under three letters: "ins" stems to "in", which would match nearly every word, so
  -- such a word matches the letters as typed ("ins" finds "install", "insert").
  stemming AS MATERIALIZED (
    SELECT variant.*, config, tsvector_to_array(to_tsvector(config, variant.word)) AS stems
      FROM variant CROSS JOIN unnest(v_configs) AS config
  ),
  typing AS (
    SELECT stemming.*,
           kind = 'prefix' AND length(word) >= 3 AND EXISTS (SELECT FROM unnest(stems) AS stem WHERE length(stem) < 3) AS as_typed
      FROM stemming
  ),
  stemmed AS MATERIALIZED (
    SELECT grp, word, kind, corrected,
           CASE
             WHEN as_typed THEN to_tsquery('simple', word || ':*')
             WHEN kind = 'prefix' THEN to_tsquery(config, word || ':*')
             WHEN kind = 'phrase' THEN phraseto_tsquery(config, word)
             ELSE plainto_tsquery(config, word)
           END AS query,
           CASE WHEN as_typed THEN ARRAY[word] ELSE stems END AS lexemes
      FROM typing
  ),
  -- Pages holding the word: the fewest of any of its stems (a stem missing counts none),
  -- for a prefix the sum over the stems it begins.
  measured AS (
    SELECT stemmed.*,
           CASE
             WHEN kind = 'prefix' THEN
               (SELECT min(frequency.pages) FROM unnest(stemmed.lexemes) AS stem(lexeme)
                  CROSS JOIN LATERAL (
                    SELECT coalesce(sum(pages), 0) AS pages FROM search_lexemes
                     WHERE organisation_id = p_organisation AND lexeme >= stem.lexeme AND lexeme <= stem.lexeme || chr(1114111)
                  ) AS frequency)
             WHEN cardinality(stemmed.lexemes) = 1 THEN
               coalesce((SELECT pages FROM search_lexemes WHERE organisation_id = p_organisation AND lexeme = stemmed.lexemes[1]), 0)
             ELSE
               (SELECT min(coalesce(frequency.pages, 0)) FROM unnest(stemmed.lexemes) AS stem(lexeme)
                  LEFT JOIN search_lexemes frequency ON frequency.organisation_id = p_organisation AND frequency.lexeme = stem.lexeme)
           END AS pages
      FROM stemmed
  ),
  grouped AS (
    SELECT grp, search_any(query) AS query, least(coalesce(max(pages), 0), v_total)::integer AS pages,
           coalesce(array_agg(DISTINCT word) FILTER (WHERE corrected), '{}') AS corrections,
           bool_or(kind = 'prefix') AS prefix
      FROM measured GROUP BY grp
  )
  SELECT jsonb_agg(jsonb_build_object('group', grp, 'query', query::text, 'pages', pages, 'corrections', corrections) ORDER BY grp),
         array_agg(query ORDER BY grp),
         array_agg(ln(1 + (v_total - pages + 0.5::float8) / (pages + 0.5::float8)) ORDER BY grp),
         array_agg(pages ORDER BY grp),
         array_agg(prefix ORDER BY grp)
    INTO v_groups, v_queries, v_weights, v_pages, v_prefixes
    FROM grouped WHERE numnode(query) > 0;

  IF v_queries IS NULL THEN
    RETURN jsonb_build_object('groups', '[]'::jsonb, 'hits', '[]'::jsonb, 'partial', '[]'::jsonb);
  END IF;
  IF p_phrase <> '' AND cardinality(v_queries) > 1 THEN
    SELECT search_any(phraseto_tsquery(config, p_phrase)) INTO v_phrase FROM unnest(v_configs) AS config;
  END IF;

  -- The body index is asked for the rarest word and for the others it can intersect
  -- cheaply; sections it finds are checked for the rest. Intersecting a whole word's
  -- posting list with the others skips most of it, so only a word on most pages is left
  -- to the check; a prefix is the union of every word it begins, read whole, so it is
  -- asked for only when it is rare.
  SELECT search_all(word.query),
         search_all(word.query) FILTER (WHERE (NOT word.prefix AND word.pages <= v_total * 3 / 4) OR word.pages <= v_total / 10
                                          OR word.pages = (SELECT min(pages) FROM unnest(v_pages) AS pages))
    INTO v_match, v_index
    FROM unnest(v_queries, v_pages, v_prefixes) AS word(query, pages, prefix);
  IF v_index::text = v_match::text THEN
    v_index := NULL;
  END IF;
  v_hits := search_ranked(p_organisation, p_sources, v_match, v_index, v_queries, v_weights, v_phrase, '{}',
                          p_wanted, p_heading_candidates, p_headings_enough, p_body_candidates, 0);
  -- Too few sections hold every word: next those missing one word, then those holding any.
  -- Only words on at most a quarter of the pages count here (the rarest always): one on
  -- more says little about which sections are meant, matching it alone would bring in most
  -- of the index, and reading its long posting list is most of what a search costs.
  SELECT array_agg(word.query ORDER BY word.position) INTO v_required
    FROM unnest(v_queries, v_pages) WITH ORDINALITY AS word(query, pages, position)
   WHERE word.pages <= v_total / 4 OR word.pages = (SELECT min(pages) FROM unnest(v_pages) AS pages);
  v_count := cardinality(v_required);
  -- With one word there is nothing partial to find; with several, even when only the rarest
  -- one is left here, sections holding it follow those holding every word.
  FOR v_tier IN 1..2 LOOP
    EXIT WHEN jsonb_array_length(v_hits) + jsonb_array_length(v_partial) >= p_enough OR cardinality(v_queries) < 2;
    CONTINUE WHEN v_tier = 1 AND v_count < 3;
    IF v_tier = 1 THEN
      SELECT search_any(search_all_but.query) INTO v_match
        FROM generate_series(1, v_count) AS left_out,
             LATERAL (SELECT search_all(v_required[kept]) AS query FROM generate_series(1, v_count) AS kept WHERE kept <> left_out) AS search_all_but;
    ELSE
      SELECT search_any(query) INTO v_match FROM unnest(v_required) AS query;
    END IF;
    v_partial := v_partial || search_ranked(
      p_organisation, p_sources, v_match, NULL, v_queries, v_weights, v_phrase,
      ARRAY(SELECT hit->>'id' FROM jsonb_array_elements(v_hits || v_partial) AS hit),
      p_wanted - jsonb_array_length(v_hits) - jsonb_array_length(v_partial), p_heading_candidates, p_headings_enough, p_body_candidates, v_tier);
  END LOOP;
  RETURN jsonb_build_object('groups', v_groups, 'hits', v_hits, 'partial', v_partial);
END $$;

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
