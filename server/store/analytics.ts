/**
 * A widget's analytics over a period: what people searched for (and found nothing for),
 * how often a search led to a click, which result positions get clicked, and how many
 * answers were given and credits spent, and how visitors rated the answers. Searches come
 * from `search_queries` (written by the search route), clicks from `analytics_events`,
 * answers from `answers`, ratings from `answer_feedback`.
 */
import type { AnalyticsPeriod } from '../schema/admin-requests.js';
import type { WidgetAnalytics } from '../schema/admin-responses.js';
import type { Queryable } from './db.js';
import type { WidgetScope } from './conversations.js';

/** Ratings given in the period (a rating counts in the period it was last changed in). */
type AnswerFeedbackSummary = WidgetAnalytics['feedback'];

export async function widgetAnalytics(db: Queryable, scope: WidgetScope, period: AnalyticsPeriod): Promise<WidgetAnalytics> {
  const params = [scope.organisationId, scope.widgetId, period.from, period.to];
  const inPeriod = (alias: string) =>
    `${alias}.organisation_id = $1 AND ${alias}.widget_id = $2 AND ${alias}.created_at >= $3 AND ${alias}.created_at < $4`;

  const [searchTotals] = await db.query<{ searches: number; withClicks: number }>(
    `SELECT count(*)::int AS searches,
            count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM analytics_events e
               WHERE e.query_id = q.id AND e.organisation_id = q.organisation_id AND e.widget_id = q.widget_id AND e.name = 'click'))::int AS "withClicks"
       FROM search_queries q WHERE ${inPeriod('q')}`,
    params,
  );
  const topQueries = await db.query<{ query: string; searches: number }>(
    `SELECT lower(btrim(q.query)) AS query, count(*)::int AS searches FROM search_queries q
      WHERE ${inPeriod('q')} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20`,
    params,
  );
  const noResultQueries = await db.query<{ query: string; searches: number }>(
    `SELECT lower(btrim(q.query)) AS query, count(*)::int AS searches FROM search_queries q
      WHERE ${inPeriod('q')} AND q.hit_count = 0 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20`,
    params,
  );
  const clicksByRank = await db.query<{ rank: number | null; clicks: number }>(
    `SELECT e.rank, count(*)::int AS clicks FROM analytics_events e
      WHERE ${inPeriod('e')} AND e.name = 'click' GROUP BY e.rank ORDER BY e.rank NULLS LAST`,
    params,
  );
  const [answers] = await db.query<{ chat: number; summaries: number; creditsSpent: number }>(
    `SELECT count(*) FILTER (WHERE a.kind = 'chat' AND a.status = 'complete')::int AS chat,
            count(*) FILTER (WHERE a.kind = 'summary' AND a.status = 'complete')::int AS summaries,
            count(*) FILTER (WHERE a.credit = 'spent')::int AS "creditsSpent"
       FROM answers a WHERE ${inPeriod('a')}`,
    params,
  );
  const [sessions] = await db.query<{ sessions: number }>(
    `SELECT count(DISTINCT session_id)::int AS sessions FROM (
       SELECT q.session_id FROM search_queries q WHERE ${inPeriod('q')} AND q.session_id IS NOT NULL
       UNION ALL SELECT a.session_id FROM answers a WHERE ${inPeriod('a')}
       UNION ALL SELECT e.session_id FROM analytics_events e WHERE ${inPeriod('e')}) AS seen`,
    params,
  );

  const feedback = await feedbackSummary(db, params);

  const searches = searchTotals?.searches ?? 0;
  const searchesWithClicks = searchTotals?.withClicks ?? 0;
  return {
    widget: `${scope.organisationId}/${scope.widgetId}`,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    sessions: sessions?.sessions ?? 0,
    searches,
    topQueries,
    noResultQueries,
    clicks: clicksByRank.reduce((sum, row) => sum + row.clicks, 0),
    searchesWithClicks,
    clickThroughRate: searches === 0 ? 0 : Math.round((searchesWithClicks / searches) * 10_000) / 10_000,
    clicksByRank,
    answers: { chat: answers?.chat ?? 0, summaries: answers?.summaries ?? 0, total: (answers?.chat ?? 0) + (answers?.summaries ?? 0) },
    creditsSpent: answers?.creditsSpent ?? 0,
    feedback,
  };
}

async function feedbackSummary(db: Queryable, params: unknown[]): Promise<AnswerFeedbackSummary> {
  const inPeriod = 'f.organisation_id = $1 AND f.widget_id = $2 AND f.updated_at >= $3 AND f.updated_at < $4';
  const [totals] = await db.query<{ helpful: number; unhelpful: number }>(
    `SELECT count(*) FILTER (WHERE f.value = 'helpful')::int AS helpful, count(*) FILTER (WHERE f.value = 'unhelpful')::int AS unhelpful
       FROM answer_feedback f WHERE ${inPeriod}`,
    params,
  );
  // A chat answer's question is the visitor's message just before it in its conversation.
  const unhelpful = await db.query<{ answerId: string; kind: 'chat' | 'summary'; question: string | null; comment: string | null; ratedAt: Date | string }>(
    `SELECT f.answer_id AS "answerId", a.kind, f.comment, f.updated_at AS "ratedAt",
            COALESCE(a.question, (
              SELECT q.text FROM messages m JOIN messages q ON q.conversation_id = m.conversation_id AND q.role = 'user' AND q.id < m.id
               WHERE m.answer_id = f.answer_id ORDER BY q.id DESC LIMIT 1)) AS question
       FROM answer_feedback f JOIN answers a ON a.id = f.answer_id
      WHERE ${inPeriod} AND f.value = 'unhelpful'
      ORDER BY f.updated_at DESC, f.answer_id LIMIT 50`,
    params,
  );
  const helpful = totals?.helpful ?? 0;
  const unhelpfulCount = totals?.unhelpful ?? 0;
  const rated = helpful + unhelpfulCount;
  return {
    helpful,
    unhelpful: unhelpfulCount,
    helpfulRate: rated === 0 ? null : Math.round((helpful / rated) * 10_000) / 10_000,
    unhelpfulAnswers: unhelpful.map((row) => ({ ...row, ratedAt: new Date(row.ratedAt).toISOString() })),
  };
}
