/** Bodies and query parameters of the widget routes: search, summarize, chat, events, conversations. */
import * as z from 'zod';
import { FEEDBACK_VALUES, LIMITS } from '../../wire/contract.js';
import { components } from './registry.js';
import { FIELD_LIMITS } from './limits.js';
import { flag, id, integer, matching, optionalSessionId, SessionId, shortText, storableTimeString, text } from './fields.js';

const question = (description: string) => text(FIELD_LIMITS.question, { description });

export const SearchRequest = z.object({
  query: question('What the visitor typed.'),
  limit: integer(1, FIELD_LIMITS.searchLimitMax, 'How many hits at most.').default(FIELD_LIMITS.searchLimitDefault),
  sessionId: optionalSessionId,
});
components.add(SearchRequest, { id: 'SearchRequest' });

export const SummarizeRequest = z.object({
  query: question('The search query to summarise results for.'),
  sessionId: optionalSessionId,
});
components.add(SummarizeRequest, { id: 'SummarizeRequest' });

export const VisitorHash = z.string().regex(/^[0-9a-f]{64}$/).meta({
  description:
    "Lowercase hex HMAC-SHA256 of the visitor id, keyed with the widget's identity signing secret: " +
    "`createHmac('sha256', signingSecret).update(id).digest('hex')`. After the signing secret is rotated, hashes made with the previous " +
    'one are accepted for 24 hours.',
});
components.add(VisitorHash, { id: 'VisitorHash' });

/**
 * A signed visitor. Only its shape is checked here: whether `id` and `hash` are present and
 * match is identity (http/identity.ts), answered 403 `invalid_identity`, never 400.
 */
export const VisitorIdentity = z
  .looseObject(
    {
      id: z.unknown().optional().meta({ description: 'The visitor id chosen by the integrator (numbers converted to string before signing).', type: 'string', minLength: 1, maxLength: FIELD_LIMITS.visitorId }),
      hash: z.unknown().optional().meta({ $ref: '#/components/schemas/VisitorHash' }),
    },
    { error: 'must be an object with `id` and `hash`.' },
  )
  .meta({ description: 'A signed visitor. A wrong hash is 403 `invalid_identity`, never an anonymous visitor.', required: ['id'] });
components.add(VisitorIdentity, { id: 'VisitorIdentity' });

const contextText = (max: number, description: string) =>
  shortText(max)
    .nullish()
    .transform((value) => value ?? undefined)
    .meta({ description });

/** `context` as the SDK sends it: `{ url, title, ... }`; members other than url and title are ignored. */
const PageContextInput = z
  .looseObject(
    { url: contextText(FIELD_LIMITS.url, 'The page the visitor is on.'), title: contextText(FIELD_LIMITS.contextTitle, 'Its title.') },
    { error: 'must be an object such as { "url": "…", "title": "…" }.' },
  )
  .transform(({ url, title }) => ({ url, title }))
  .meta({ description: 'What the page says about itself (url, title, anything more), used to improve the answer.' });

export const ChatRequest = z.object({
  message: question("The visitor's message."),
  conversationId: id('Continue this conversation. Without it a new one starts.').nullish(),
  user: VisitorIdentity.nullish().meta({
    description:
      "With a valid hash the conversation is the visitor's: listed, kept and deleted only by them. Without `user`, the conversation can be continued by its id but is never listed.",
  }),
  context: z.union([PageContextInput, z.null(), z.literal(false)], { error: 'must be an object such as { "url": "…", "title": "…" }.' }).optional(),
  sessionId: optionalSessionId,
});
components.add(ChatRequest, { id: 'ChatRequest' });

/** `user` and `hash` of the conversation routes, as query parameters or body fields; checked by http/identity.ts. */
const visitorFields = {
  user: z.unknown().optional().meta({ description: 'The visitor id (may also come as the `user` query parameter).', type: 'string', maxLength: FIELD_LIMITS.visitorId }),
  hash: z.unknown().optional().meta({ $ref: '#/components/schemas/VisitorHash' }),
};

export const VisitorProof = z.looseObject(visitorFields).meta({
  description: 'Optional body of conversation deletes: `user` and `hash` as body fields instead of query parameters.',
});
components.add(VisitorProof, { id: 'VisitorProof' });

export const KeepRequest = z
  .looseObject({
    ...visitorFields,
    kept: flag('`true` keeps the conversation from expiring; `false` releases it (it then expires 30 days after its last message).').default(true),
  })
  .meta({ description: '`user` and `hash` are needed, here or as query parameters.' });
components.add(KeepRequest, { id: 'KeepRequest' });

export const VisitorQuery = z.object({
  user: z.string().max(FIELD_LIMITS.visitorId).optional().meta({ description: "The signed visitor's id. May come as a body field instead." }),
  hash: z.string().optional().meta({ description: 'The visitor hash of `user`. May come as a body field instead.' }),
});

// Analytics events. Every object is strict: anything unknown is refused rather than stored.

const QUERY_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const ANSWER_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const eventTime = storableTimeString("When it happened, by the client's clock.").nullish();

const ClickEvent = z
  .strictObject({
    name: z.literal('click').meta({ description: 'A click on a result or a cited source.' }),
    props: z.strictObject(
      {
        url: shortText(FIELD_LIMITS.url, `must be a non-empty string of at most ${FIELD_LIMITS.url} characters.`)
          .regex(/\S/, { error: `must be a non-empty string of at most ${FIELD_LIMITS.url} characters.` })
          .meta({ description: 'The URL clicked.' }),
        rank: integer(0, FIELD_LIMITS.clickRank, 'Result position, from 1.').nullish(),
        source: shortText(FIELD_LIMITS.clickSource)
          .nullish()
          .meta({ description: 'Where the link was, e.g. `result` or `summary`.' }),
      },
      { error: 'must be an object with `url`.' },
    ),
    queryId: matching(QUERY_ID_PATTERN, 'must be a query id from a search response.')
      .nullish()
      .meta({ description: 'The `queryId` of the search the click came from.' }),
    ts: eventTime,
  })
  .transform(({ props, queryId, ts }) => ({
    name: 'click' as const,
    url: props.url,
    rank: props.rank ?? null,
    source: props.source ?? null,
    queryId: queryId ?? null,
    clientTime: ts ? new Date(ts).toISOString() : null,
  }));
components.add(ClickEvent, { id: 'ClickEvent' });

const FeedbackEvent = z
  .strictObject({
    name: z.literal('feedback').meta({ description: 'A rating of an answer this visitor or session received; a later rating of the same answer replaces it.' }),
    props: z.strictObject(
      {
        answerId: matching(ANSWER_ID_PATTERN, 'must be the `answerId` of an answer.').meta({ description: "The `answerId` of a chat reply or summary (from `meta`, `done` or the reply): one in a signed visitor's conversation is rated by that visitor (the body's `user`, from any session), any other by the session that received it; any other is 400." }),
        value: z.enum(FEEDBACK_VALUES, { error: 'must be "helpful" or "unhelpful".' }).meta({ description: 'The rating.' }),
        comment: shortText(LIMITS.feedbackComment)
          .nullish()
          .meta({ description: "Why, in the visitor's words." }),
      },
      { error: 'must be an object with `answerId` and `value`.' },
    ),
    queryId: z.unknown().optional().meta({ description: 'Ignored for feedback.', type: 'string' }),
    ts: eventTime,
  })
  .transform(({ props }) => ({ name: 'feedback' as const, answerId: props.answerId, value: props.value, comment: props.comment?.trim() || null }));
components.add(FeedbackEvent, { id: 'FeedbackEvent' });

const EVENTS_COUNT = `must be an array of 1 to ${FIELD_LIMITS.events} events.`;

export const EventsBody = z
  .strictObject({
    sessionId: z.string({ error: "is required: 1–128 letters, digits, '_' or '-'." }).pipe(SessionId),
    events: z
      .array(z.discriminatedUnion('name', [ClickEvent, FeedbackEvent], { error: 'must be "click" or "feedback".' }), { error: EVENTS_COUNT })
      .min(1, { error: EVENTS_COUNT })
      .max(FIELD_LIMITS.events, { error: EVENTS_COUNT }),
    user: VisitorIdentity.nullish().meta({ description: "The signed visitor, as in chat: rates the answers of their own conversations from any session." }),
  })
  .meta({ description: `Analytics events of one session; at most ${LIMITS.events / 1024} KiB.` });
components.add(EventsBody, { id: 'EventsBody' });

export type RecordedEvent = z.output<typeof EventsBody>['events'][number];
export type ClickEvent = Extract<RecordedEvent, { name: 'click' }>;
export type FeedbackEvent = Extract<RecordedEvent, { name: 'feedback' }>;
