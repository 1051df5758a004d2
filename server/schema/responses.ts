/**
 * The response shapes of the contract that wire/contract.ts types for the browser: error
 * bodies, pages, the key's view of itself, widget config, search hits, answers, conversations
 * and stream events. test/server/wire-schemas.test.ts checks that each one's type is the
 * wire type, so the two cannot drift; the OpenAPI document shows them as they are here.
 */
import * as z from 'zod';
import { ERROR_STATUS, LIMITS, STREAM_STATUSES, WIDGET_TYPES, type ErrorCode } from '../../wire/contract.js';
import { Permission, WidgetSettings } from './admin-requests.js';
import { components } from './registry.js';
import { count, described, Id, id, PageMetadata, SessionId, timestamp } from './fields.js';

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).meta({ description: "Machine-readable; one of the contract's codes." }),
      message: described('For people; names the offending field where there is one. Never a stack trace.'),
    }),
  })
  .meta({
    description: 'The body of every non-2xx response.',
    examples: [{ error: { code: 'permission_denied', message: 'This key lacks the pages.write permission.' } }],
  });
components.add(ErrorBody, { id: 'Error' });

export const Source = z
  .object({
    url: z.string().meta({ description: 'Where the cited text is.', format: 'uri' }),
    title: described('The page title.'),
    pageId: id('The page.'),
    section: described('The heading path of the cited section, when it has one (two sections of one page differ by it).').optional(),
  })
  .meta({ description: 'A source cited by a chat answer or a summary.' });
components.add(Source, { id: 'Source' });

export const Hit = z.object({
  id: described('Identifies the hit (a section of a page).'),
  pageId: id('The page it is in.'),
  url: z.string().meta({ description: 'Link to the page; may carry a `#fragment` for the matching section.', format: 'uri' }),
  title: described('The page title.'),
  section: described('The heading path of the matching section, when it has one.').optional(),
  snippet: described('HTML in which only `<mark>` is markup and everything else is escaped.'),
  source: id('The source it came from.'),
  score: z.number().meta({ description: 'Relevance; higher is better. Only comparable within one response.' }),
});
components.add(Hit, { id: 'Hit' });

export const PageConflictError = z
  .intersection(ErrorBody, z.object({ pageId: id('The page that already has this `url`.') }))
  .meta({ description: '409 on a page write: the source has a page with that `url` already.' });
components.add(PageConflictError, { id: 'PageConflictError' });

export const CreditsExhaustedError = z
  .intersection(ErrorBody, z.object({ hits: z.array(Hit).meta({ description: "Search results for the message over the widget's sources, so the chat widget can fall back to them." }) }))
  .meta({ description: '402 on chat: no answer credits left. Sent before any streaming starts.' });
components.add(CreditsExhaustedError, { id: 'CreditsExhaustedError' });

export const Page = z.object({
  id: id('Made by the server: `p_` and random characters.'),
  source: id('The source the page is in.'),
  url: z.string().meta({ description: 'Absolute http(s) URL; unique within the source.', format: 'uri' }),
  title: described(
    "The given title (for HTML, entities decoded and the site name around the page's heading removed), or one derived from the " +
      'content (HTML `<title>` without the site name, first heading) or the URL.',
  ),
  language: described('Language tag, e.g. `en` or `pt-BR`; drives stemming. An HTML page written without one takes its `<html lang>`. Absent when not set.').optional(),
  metadata: PageMetadata.optional(),
  createdAt: timestamp('When the page was created.'),
  updatedAt: timestamp('When the page last changed.'),
  content: described(
    'Only on get, create and patch. Stored as text: markdown as sent; HTML read into markdown: its main content only (navigation, ' +
      'headers, footers, sidebars and permalink marks dropped), headings followed by `{#id}` where the page gives them an id, code ' +
      'blocks fenced with their language, inline code, tables and definition lists kept; plain text as sent. Never served back as HTML.',
  ).optional(),
});
components.add(Page, { id: 'Page' });

export const PageWithContent = z.intersection(Page, z.object({ content: z.string() })).meta({ description: 'A page with its `content`.' });
components.add(PageWithContent, { id: 'PageWithContent' });

export const PageList = z.object({
  pages: z.array(Page).meta({ description: 'Pages without `content`, oldest first.' }),
  nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page of results; `null` on the last one. Opaque.' }),
});
components.add(PageList, { id: 'PageList' });

export const Me = z.object({
  organisation: z.object({ id: Id, name: described('Display name.') }),
  key: z.object({
    id: described("The key's public id: `key_` and 16 hex digits (not the key itself)."),
    name: described('What the key is for.'),
    permissions: z.array(Permission),
    sources: z.array(Id).nullable().meta({ description: 'The source limit; `null` when the key reaches every source.' }),
  }),
  sources: z.array(z.object({ id: Id, name: described('Display name.'), pages: count('How many pages it holds.') })).meta({ description: 'The sources this key may reach, by id.' }),
});
components.add(Me, { id: 'Me' });

export const WidgetConfig = WidgetSettings.extend({
  type: z.enum(WIDGET_TYPES).meta({ description: 'The widget type.' }),
  name: described('Display name.'),
})
  .required()
  .meta({ description: 'Presentation config (spec 2.4): every field, with its default where the widget sets none.' });
components.add(WidgetConfig, { id: 'WidgetConfig' });

export const SearchResponse = z.object({
  sessionId: SessionId,
  queryId: described('Identifies this search, so a click can be tied to it (`queryId` of a click event).'),
  hits: z.array(Hit).meta({ description: 'Best first.' }),
});
components.add(SearchResponse, { id: 'SearchResponse' });

const replySessionId = (what: string) => SessionId.optional().meta({ description: `In the JSON response (not in the \`done\` event): the session the ${what} counts in.` });

export const SummarizeResult = z
  .object({
    summarized: z.boolean().meta({ description: 'False when no summary was made (no credits left, or nothing to summarise); `text` is then empty.' }),
    text: described('Markdown with numbered citations matching `sources`.'),
    sources: z.array(Source),
    sessionId: replySessionId('summary'),
  })
  .meta({ description: "A summary. Its `answerId`, for feedback, is in the stream's `meta` event." });
components.add(SummarizeResult, { id: 'SummarizeResult' });

export const ChatReply = z
  .object({
    text: described('The answer, markdown, with numbered citations matching `sources`.'),
    conversationId: id('The conversation (new or continued), `c_…`.'),
    answerId: described('Identifies this answer, `a_…`.'),
    sources: z.array(Source),
    sessionId: replySessionId('answer'),
  })
  .meta({ description: 'A full chat reply (spec 2.6).' });
components.add(ChatReply, { id: 'ChatReply' });

export const ConversationSummary = z.object({
  id: id('`c_…`'),
  title: described('From the first message.'),
  kept: z.boolean().meta({ description: 'Kept conversations do not expire until released.' }),
  createdAt: timestamp('When it started.'),
  updatedAt: timestamp('When its last message was added.'),
  expiresAt: timestamp(`When it vanishes: ${LIMITS.conversationTtlDays} days after the last message; \`null\` while kept.`).nullable(),
  messageCount: count('How many messages it has.'),
});
components.add(ConversationSummary, { id: 'ConversationSummary' });

export const ConversationMessage = z.object({
  role: z.enum(['user', 'assistant']).meta({ description: 'Who said it.' }),
  text: described('The message; for the assistant, markdown.'),
  answerId: described('Assistant messages: the answer id.').optional(),
  sources: z.array(Source).meta({ description: 'Assistant messages: the cited sources.' }).optional(),
  complete: z.boolean().meta({ description: 'Assistant messages: false when generation stopped before the answer was complete (the client went away).' }).optional(),
  createdAt: timestamp('When it was said.'),
});
components.add(ConversationMessage, { id: 'ConversationMessage' });

export const Conversation = z
  .intersection(ConversationSummary, z.object({ messages: z.array(ConversationMessage).meta({ description: 'Oldest first.' }) }))
  .meta({ description: 'One transcript.' });
components.add(Conversation, { id: 'Conversation' });

export const ConversationList = z.object({ conversations: z.array(ConversationSummary).meta({ description: 'Newest first.' }) });
components.add(ConversationList, { id: 'ConversationList' });

export const StreamMeta = z
  .object({
    conversationId: id('Chat only.').optional(),
    answerId: described('The answer being generated.'),
    sessionId: SessionId.optional().meta({ description: 'The session the answer counts in (made by the server when the request had none).' }),
  })
  .meta({ description: 'First event.' });
components.add(StreamMeta, { id: 'StreamMeta' });

export const StreamStatus = z.object({ status: z.enum(STREAM_STATUSES).meta({ description: 'What the server is doing.' }) });
components.add(StreamStatus, { id: 'StreamStatus' });

export const StreamSources = z.object({ sources: z.array(Source) }).meta({ description: 'Once retrieval is done.' });
components.add(StreamSources, { id: 'StreamSources' });

export const StreamToken = z.object({ delta: described('The next piece of the answer; all deltas concatenated equal `done.text`.') });
components.add(StreamToken, { id: 'StreamToken' });

export const Health = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']).meta({ description: 'Which database the server uses.' }) });
components.add(Health, { id: 'Health' });
