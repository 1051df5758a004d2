-- search_run as in 015_joined_words.sql, finding the same words with fewer lookups: each
-- word's pages, and the forms a search tries for how the pages may write the words (two as
-- one, one as two, hyphenated), were looked up one by one, and a query with a word the pages
-- never use (a typo, a word half typed) tried every place to cut it in two, each half a
-- lookup of its own. Now the query's words, the halves of every cut, the words joined and
-- the hyphenated forms are each looked up together, in one scan of the index, and whether a
-- word is a stop word is read once per search, with its pages. The words found, and so the
-- hits, are the same, about a sixth sooner. The form of search_run that the releases before
-- 015 call runs this one (016_earlier_search_calls.sql).

CREATE OR REPLACE FUNCTION search_run(
  p_organisation text, p_sources text[], p_languages text[],
  p_words text[], p_kinds text[], p_max_edits integer[], p_swap_groups integer[], p_swaps text[],
  p_nearby_groups integer[], p_nearby text[], p_phrase text, p_enough integer, p_wanted integer,
  p_heading_candidates integer, p_headings_enough integer, p_body_candidates integer,
  p_letters text[], p_unhyphenated text[]
) RETURNS jsonb LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan SET client_min_messages = warning SET jit = off AS $$
DECLARE
  v_configs regconfig[];
  v_count integer;
  v_tier integer;
  v_total integer;
  v_word_pages integer[];
  v_misspelt bigint[];
  v_literal boolean[];
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
  v_written_groups bigint[];
  v_written_words text[];
  v_written_kinds text[];
  v_content boolean[];
BEGIN
  SELECT array_agg(DISTINCT known.config::regconfig) INTO v_configs
    FROM (SELECT config FROM search_configs WHERE organisation_id = p_organisation AND source_id = ANY (p_sources)
          UNION SELECT unnest(p_languages)) AS known(config);
  IF v_configs IS NULL THEN
    RETURN jsonb_build_object('groups', '[]'::jsonb, 'hits', '[]'::jsonb, 'partial', '[]'::jsonb);
  END IF;
  SELECT coalesce(sum(pages), 0) INTO v_total FROM search_stats WHERE organisation_id = p_organisation AND source_id = ANY (p_sources);

  -- Each word's pages, and which words may be misspelt: a prefix that completes to real
  -- words is a word being typed, not a typo; a word on more than a two-hundredth of the
  -- pages is one the pages use, and looking for its neighbours is a large share of a search.
  -- An identifier matches as written when the pages hold it (or, being typed, one it begins).
  -- And whether each word is one a search looks for, not a stop word (search_content_word).
  SELECT array_agg(coalesce(vocabulary.pages, 0) ORDER BY chunk.grp),
         array_agg(CASE chunk.kind
                     WHEN 'identifier' THEN EXISTS (
                       SELECT FROM search_lexemes WHERE lexeme = search_identifier(chunk.word) AND organisation_id = p_organisation AND source_id = ANY (p_sources) AND pages > 0)
                     WHEN 'identifier-prefix' THEN EXISTS (
                       SELECT FROM search_lexemes
                        WHERE lexeme >= search_identifier(chunk.word) AND lexeme < search_identifier(chunk.word) || chr(1114111)
                          AND organisation_id = p_organisation AND source_id = ANY (p_sources) AND pages > 0)
                     ELSE false
                   END ORDER BY chunk.grp),
         array_agg(search_content_word(v_configs, p_letters[chunk.grp]) ORDER BY chunk.grp),
         array_agg(chunk.grp ORDER BY chunk.grp) FILTER (
           WHERE chunk.max_edits > 0 AND coalesce(vocabulary.pages, 0) * 200 <= v_total
             AND NOT (chunk.kind = 'prefix' AND EXISTS (
               SELECT FROM search_vocabulary completion
                WHERE completion.organisation_id = p_organisation AND completion.source_id = ANY (p_sources) AND completion.pages > 0
                  AND completion.word > chunk.word AND completion.word < chunk.word || chr(1114111))))
    INTO v_word_pages, v_literal, v_content, v_misspelt
    FROM unnest(p_words, p_kinds, p_max_edits) WITH ORDINALITY AS chunk(word, kind, max_edits, grp)
    LEFT JOIN (
      SELECT word, sum(pages)::integer AS pages FROM search_vocabulary
       WHERE word = ANY (p_words) AND organisation_id = p_organisation AND source_id = ANY (p_sources)
       GROUP BY word
    ) AS vocabulary ON vocabulary.word = chunk.word;

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
          SELECT word, sum(pages)::integer AS pages FROM search_vocabulary
           WHERE word <> misspelt.word AND pages > 0 AND source_id = ANY (p_sources)
             AND deletions && ARRAY(SELECT p_organisation || ' ' || nearby.word FROM unnest(p_nearby_groups, p_nearby) AS nearby(grp, word)
                                     WHERE nearby.grp = misspelt.grp AND length(nearby.word) >= length(misspelt.word) - misspelt.max_edits)
           GROUP BY word
        ) AS neighbour
    ),
    -- Two edits can be two changed letters, which share no neighbourhood: the trigram index
    -- looks further, for the few words nothing nearby corrects.
    distant AS (
      SELECT misspelt.grp, neighbour.word, neighbour.pages
        FROM misspelt CROSS JOIN LATERAL (
          SELECT word, sum(pages)::integer AS pages FROM search_vocabulary
           WHERE organisation_id = p_organisation AND source_id = ANY (p_sources) AND word % misspelt.word AND word <> misspelt.word AND pages > 0
           GROUP BY word
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

  -- How the pages may write a query's words otherwise: two neighbouring words, neither a stop
  -- word, as the one word the pages use ("default dict" for `defaultdict`, "table space");
  -- a word with hyphens between its letters without them ("auto-vacuum"); a word the pages
  -- never use as two words, neither a stop word, side by side ("colourscheme" as "colour
  -- scheme"); a word as the pages hyphenate it ("btree" as "B-tree"). p_letters holds each
  -- word's letters (NULL for a word of other characters), p_unhyphenated a hyphenated
  -- word's letters without its hyphens.
  -- Each place a word the pages never use may be cut in two, three letters or more each side.
  WITH split AS MATERIALIZED (
    SELECT letters.grp, cut, left(letters.word, cut) AS head, substr(letters.word, cut + 1) AS tail
      FROM unnest(p_letters) WITH ORDINALITY AS letters(word, grp)
      CROSS JOIN generate_series(3, length(letters.word) - 3) AS cut
     WHERE p_kinds[letters.grp] IN ('plain', 'prefix') AND coalesce(v_word_pages[letters.grp], 0) = 0
       AND length(letters.word) BETWEEN 6 AND 32
  ),
  -- Those of the halves the pages use, all in one lookup.
  half AS MATERIALIZED (
    SELECT word, sum(pages) AS pages FROM search_vocabulary
     WHERE word = ANY (ARRAY(SELECT head FROM split UNION SELECT tail FROM split)) AND organisation_id = p_organisation AND source_id = ANY (p_sources)
     GROUP BY word HAVING sum(pages) > 0
  ),
  -- Each word, not a stop word, as typed and stemmed: the forms a hyphenated word of the pages may have without its hyphens.
  typed AS MATERIALIZED (
    SELECT DISTINCT letters.grp, form
      FROM unnest(p_letters) WITH ORDINALITY AS letters(word, grp)
      CROSS JOIN unnest(v_configs) AS config
      CROSS JOIN LATERAL unnest(array_append(tsvector_to_array(to_tsvector(config, letters.word)), letters.word)) AS form
     WHERE p_kinds[letters.grp] IN ('plain', 'prefix') AND length(letters.word) BETWEEN 4 AND 32 AND v_content[letters.grp]
  )
  SELECT array_agg(written.grp), array_agg(written.word), array_agg(written.kind) INTO v_written_groups, v_written_words, v_written_kinds
    FROM (
      -- Two words joined match for each of the two (width 1), a hyphenated word for itself; the words joined and
      -- unhyphenated that the pages use are looked up together.
      SELECT side.grp, pair.word, 'plain' AS kind FROM (
        SELECT first.grp, p_letters[first.grp] || p_letters[first.grp + 1] AS word, 1 AS width
          FROM generate_series(1, cardinality(p_words) - 1) AS first(grp)
         WHERE p_kinds[first.grp] = 'plain' AND p_kinds[first.grp + 1] IN ('plain', 'prefix') AND v_content[first.grp] AND v_content[first.grp + 1]
        UNION ALL
        SELECT hyphenated.grp, hyphenated.word, 0 FROM unnest(p_unhyphenated) WITH ORDINALITY AS hyphenated(word, grp) WHERE hyphenated.word IS NOT NULL
      ) AS pair
      CROSS JOIN LATERAL generate_series(pair.grp, pair.grp + pair.width) AS side(grp)
       WHERE pair.word = ANY (ARRAY(
         SELECT word FROM search_vocabulary
          WHERE word = ANY (ARRAY(SELECT p_letters[joined.grp] || p_letters[joined.grp + 1] FROM generate_series(1, cardinality(p_words) - 1) AS joined(grp)) || p_unhyphenated)
            AND organisation_id = p_organisation AND source_id = ANY (p_sources) AND pages > 0))
      UNION ALL
      (SELECT DISTINCT ON (split.grp) split.grp, split.head || ' ' || split.tail, 'phrase'
        FROM split JOIN half AS head ON head.word = split.head JOIN half AS tail ON tail.word = split.tail
       WHERE search_content_word(v_configs, split.head) AND search_content_word(v_configs, split.tail)
       ORDER BY split.grp, least(head.pages, tail.pages) DESC, split.cut)
      UNION ALL
      -- A word the pages write with hyphens ("btree" as "B-tree", "builtin" as "built-in",
      -- "readonly" as "read-only"): the pages' hyphenated words whose letters are the word's,
      -- as typed or stemmed, matched as the parser indexed them (`lexeme`), the two commonest.
      -- Not a stop word, and only a hyphenated word on a tenth as many pages as the word as
      -- typed or more: each variant of a word dilutes its rank, and "database" is not to be
      -- weighed down by the odd "data-base".
      -- The forms are looked up together, through search_lexemes_unhyphenated.
      (SELECT hyphenated.grp, hyphenated.lexeme, 'lexeme'
        FROM (
          SELECT typed.grp, found.lexeme, sum(found.pages) AS pages,
                 row_number() OVER (PARTITION BY typed.grp ORDER BY sum(found.pages) DESC, found.lexeme) AS rank
            FROM typed JOIN (
              SELECT lexeme, pages, replace(lexeme, '-', '') AS form FROM search_lexemes
               WHERE strpos(lexeme, '-') > 0 AND replace(lexeme, '-', '') = ANY (ARRAY(SELECT form FROM typed))
                 AND organisation_id = p_organisation AND source_id = ANY (p_sources) AND pages > 0
            ) AS found ON found.form = typed.form
           GROUP BY typed.grp, found.lexeme
        ) AS hyphenated
       WHERE hyphenated.rank <= 2 AND hyphenated.pages * 10 >= coalesce(v_word_pages[hyphenated.grp], 0))
    ) AS written;

  WITH variant AS (
    SELECT grp, word, kind, false AS corrected, false AS completion FROM unnest(p_words, p_kinds) WITH ORDINALITY AS chunk(word, kind, grp)
    UNION ALL
    SELECT grp, word, 'plain', true, false FROM unnest(v_correction_groups, v_corrections) AS correction(grp, word)
    UNION ALL
    -- The words as the pages may write them: two as one ("default dict"), each of the two
    -- matching the word joined; one as two side by side ("datatype" as "data type"); one
    -- with hyphens ("btree" as "B-tree").
    SELECT grp, word, kind, false, false FROM unnest(v_written_groups, v_written_words, v_written_kinds) AS written(grp, word, kind)
    UNION ALL
    -- A word being typed also matches the commonest words of the pages it begins, through
    -- their stems: the stem of what is typed so far may not begin theirs ("oxidi" stems to
    -- "oxidi", "oxidize" to "oxid").
    SELECT chunk.grp, completion.word, 'plain', false, true
      FROM unnest(p_words, p_kinds) WITH ORDINALITY AS chunk(word, kind, grp)
     CROSS JOIN LATERAL (
       SELECT word FROM search_vocabulary
        WHERE word > chunk.word AND word < chunk.word || chr(1114111) AND organisation_id = p_organisation AND source_id = ANY (p_sources) AND pages > 0
        GROUP BY word ORDER BY sum(pages) DESC, word LIMIT 5
     ) AS completion
     WHERE chunk.kind = 'prefix' AND length(chunk.word) >= 3
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
           kind = 'prefix' AND length(word) >= 3 AND EXISTS (SELECT FROM unnest(stems) AS stem WHERE length(stem) < 3) AS as_typed,
           -- An identifier the pages do not hold falls back to the parser's words.
           kind IN ('identifier', 'identifier-prefix') AND NOT corrected AND v_literal[grp] AS literal
      FROM stemming
  ),
  stemmed AS MATERIALIZED (
    SELECT grp, config, word, CASE WHEN literal AND kind = 'identifier-prefix' THEN 'prefix' ELSE kind END AS kind, corrected, completion,
           CASE
             WHEN literal AND kind = 'identifier-prefix' THEN (search_quoted(search_identifier(word)) || ':*')::tsquery
             WHEN literal THEN search_quoted(search_identifier(word))::tsquery
             WHEN kind = 'lexeme' THEN search_quoted(word)::tsquery
             WHEN as_typed THEN to_tsquery('simple', word || ':*')
             WHEN kind = 'prefix' THEN to_tsquery(config, word || ':*')
             WHEN kind = 'phrase' THEN phraseto_tsquery(config, word)
             ELSE plainto_tsquery(config, word)
           END AS query,
           CASE WHEN literal THEN ARRAY[search_identifier(word)] WHEN as_typed OR kind = 'lexeme' THEN ARRAY[word] ELSE stems END AS lexemes
      FROM typing
  ),
  -- A completion counts only where the beginning typed does not already match its stems:
  -- each further variant of a word dilutes its rank (ts_rank averages over a query's lexemes).
  needed AS (
    SELECT * FROM stemmed
     WHERE NOT completion OR EXISTS (
       SELECT FROM unnest(stemmed.lexemes) AS stem(lexeme)
        WHERE NOT EXISTS (
          SELECT FROM stemmed typed, unnest(typed.lexemes) AS beginning(lexeme)
           WHERE typed.grp = stemmed.grp AND typed.config = stemmed.config AND typed.kind = 'prefix' AND NOT typed.completion
             AND starts_with(stem.lexeme, beginning.lexeme)))
  ),
  -- Pages holding the word: the fewest of any of its stems (a stem missing counts none),
  -- for a prefix the sum over the stems it begins.
  measured AS (
    SELECT needed.*,
           CASE
             WHEN kind = 'prefix' THEN
               (SELECT min(frequency.pages) FROM unnest(needed.lexemes) AS stem(lexeme)
                  CROSS JOIN LATERAL (
                    SELECT coalesce(sum(pages), 0) AS pages FROM search_lexemes
                     WHERE organisation_id = p_organisation AND source_id = ANY (p_sources) AND lexeme >= stem.lexeme AND lexeme <= stem.lexeme || chr(1114111)
                  ) AS frequency)
             WHEN cardinality(needed.lexemes) = 1 THEN
               coalesce((SELECT sum(pages) FROM search_lexemes WHERE organisation_id = p_organisation AND source_id = ANY (p_sources) AND lexeme = needed.lexemes[1]), 0)
             ELSE
               (SELECT min(coalesce((SELECT sum(pages) FROM search_lexemes
                                       WHERE organisation_id = p_organisation AND source_id = ANY (p_sources) AND lexeme = stem.lexeme), 0))
                  FROM unnest(needed.lexemes) AS stem(lexeme))
           END AS pages
      FROM needed
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
