/**
 * wire/contract.ts keeps plain types, so the browser and the published `assist-widgets`
 * declarations never depend on the schema library; this file ties each of them to the schema
 * the server checks and documents with. A schema whose type drifts from its wire type fails
 * `npm run typecheck` (the assertions are types); the test below runs the same pairs as values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as z from 'zod';
import type * as wire from '../../wire/contract.js';
import * as schema from '../../server/schema/responses.js';
import { EventsBody, VisitorIdentity } from '../../server/schema/widget-requests.js';
import { parseInput } from '../../server/schema/parse.js';

/** True only when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** A type with its intersections flattened into one object, as the wire types are written. */
type Flat<T> = T extends object ? { [K in keyof T]: Flat<T[K]> } : T;
type Same<A, B> = Equal<Flat<A>, Flat<B>>;
/** Each assignable to the other (for unions, which zod writes in a form Equal tells apart). */
type Interchangeable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <Check extends true>(): Check => true as Check;

export const wireTypesMatchSchemas = [
  same<Same<z.output<typeof schema.ErrorBody>, wire.ErrorBody>>(),
  same<Same<z.output<typeof schema.Page>, wire.Page>>(),
  same<Same<z.output<typeof schema.PageList>, wire.PageList>>(),
  same<Same<z.output<typeof schema.Me>, wire.Me>>(),
  same<Same<z.output<typeof schema.Hit>, wire.Hit>>(),
  same<Same<z.output<typeof schema.SearchResponse>, wire.SearchResponse>>(),
  same<Same<z.output<typeof schema.Source>, wire.Source>>(),
  // The JSON reply also says which session the answer counts in; the SDK does not read it.
  same<Same<Omit<z.output<typeof schema.ChatReply>, 'sessionId'>, wire.ChatReply>>(),
  // The client adds the `answerId` of the stream's `meta` event to the result it resolves with.
  same<Same<Omit<z.output<typeof schema.SummarizeResult>, 'sessionId'>, Omit<wire.SummarizeResult, 'answerId'>>>(),
  same<Same<z.output<typeof schema.ConversationSummary>, wire.ConversationSummary>>(),
  same<Same<z.output<typeof schema.ConversationMessage>, wire.ConversationMessage>>(),
  same<Same<z.output<typeof schema.Conversation>, wire.Conversation>>(),
  // The server checks `default_language` against the built-in locales; the browser reads any string.
  same<Same<Omit<z.output<typeof schema.WidgetConfig>, 'default_language'>, Omit<wire.WidgetConfig, 'default_language'>>>(),
  same<Interchangeable<z.output<typeof schema.WidgetConfig>['default_language'], wire.Locale>>(),
  same<Same<Omit<z.output<typeof schema.StreamMeta>, 'sessionId'>, wire.StreamEvents['meta']>>(),
  same<Same<z.output<typeof schema.StreamStatus>, wire.StreamEvents['status']>>(),
  same<Same<z.output<typeof schema.StreamSources>, wire.StreamEvents['sources']>>(),
  same<Same<z.output<typeof schema.StreamToken>, wire.StreamEvents['token']>>(),
  // Requests: what the SDK sends must be what the server takes.
  same<Flat<wire.EventsBody> extends z.input<typeof EventsBody> ? true : false>(),
  same<Flat<wire.VisitorIdentity> extends z.input<typeof VisitorIdentity> ? true : false>(),
];

test('values of the wire types pass the server schemas', () => {
  const source: wire.Source = { url: 'https://acme.test/start', title: 'Start', pageId: 'p_1', section: 'Install' };
  const reply: wire.ChatReply = { text: 'Yes [1].', conversationId: 'c_1', answerId: 'a_1', sources: [source] };
  assert.deepEqual(parseInput(schema.ChatReply, reply), reply);
  const events: wire.EventsBody = {
    sessionId: 's_1',
    events: [
      { name: 'click', props: { url: 'https://acme.test/start', rank: 1, source: 'result' }, queryId: 'q_1' },
      { name: 'feedback', props: { answerId: 'a_1', value: 'helpful', comment: 'Clear.' } },
    ],
  };
  assert.equal(parseInput(EventsBody, events).events.length, 2);
  assert.equal(wireTypesMatchSchemas.length, 20);
});
