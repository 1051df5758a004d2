/**
 * One answer, from an authorised and validated request to the reply: spend a credit,
 * retrieve, generate, and answer as one JSON object or as the contract's event stream
 * (`meta`, `status: searching`, `sources`, `status: generating`, `token`…, `done` or
 * `error`). Chat and summarize differ only in what they store and in the shapes of
 * `meta` and `done`; everything else is this one piece of code.
 */
import type { ServerResponse } from 'node:http';
import type { ChatReply, Source, StreamEventName, StreamEvents, SummarizeResult } from '../../wire/contract.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import type { Reply } from '../http/router.js';
import { streamEvents, type EventStream } from '../http/sse.js';
import { beginAnswer, finishAnswer, type AnswerOutcome } from '../store/answers.js';
import { sourceNames, type OrganisationRecord, type WidgetRecord } from '../store/records.js';
import { generateId } from '../store/secrets.js';
import { noAnswerText } from './embedded.js';
import { answerEngine } from './engine.js';
import { fallbackHits, groundingOf, retrieveSections, sourcesOf, summarySections } from './retrieval.js';
import { AnswerEngineError, type PageContext, type Turn } from './types.js';

export interface AnswerRequest {
  app: AppContext;
  res: ServerResponse;
  signal: AbortSignal;
  organisation: OrganisationRecord;
  widget: WidgetRecord;
  sessionId: string;
  /** Answer as Server-Sent Events rather than one JSON object. */
  stream: boolean;
  question: string;
  /** The visitor's language (a built-in locale), for every word the engine writes itself. */
  language: string;
  /** Chat only; a summary has no conversation. */
  chat?: { conversationId?: string; visitorId: string | null; context?: PageContext };
  /** Summary only: how many hits the search widget shows for the query, the hits the summary is built from. */
  summary?: { hits: number };
}

/** Anything that is not the engine's own report becomes this, so no internals reach the visitor. */
const GENERIC_FAILURE = 'The answer could not be generated. Please try again.';

export async function respondWithAnswer(request: AnswerRequest): Promise<Reply | void> {
  const { app, organisation, widget } = request;
  const kind = request.chat ? 'chat' : 'summary';
  const answerId = generateId('a_');
  const begun = await beginAnswer(app.db, {
    organisationId: organisation.id,
    widgetId: widget.id,
    answerId,
    kind,
    sessionId: request.sessionId,
    ...(!request.chat && { summaryQuery: request.question }),
    chat: request.chat && { ...request.chat, newConversationId: generateId('c_'), question: request.question },
  });

  if (!begun) {
    if (request.chat) {
      const hits = await fallbackHits(app.db, { organisationId: organisation.id, sources: widget.sources, question: request.question, context: request.chat.context });
      throw new HttpError('credits_exhausted', 'This organisation has no answer credits left.', {}, { hits });
    }
    const empty: SummarizeResult = { summarized: false, text: '', sources: [] };
    if (!request.stream) return { body: { ...empty, sessionId: request.sessionId } };
    await streamEvents(request.res, request.signal, async (stream) => {
      const meta = { answerId, sessionId: request.sessionId };
      if (await stream.send('meta', meta)) await stream.send('done', empty);
    });
    return;
  }

  const conversationId = begun.conversationId;
  const history: Turn[] = begun.history.filter((turn) => turn.complete && turn.text).map(({ role, text }) => ({ role, text }));
  const answer = new AnswerRun(request, answerId, history);

  if (!request.stream) {
    const result = await answer.run();
    if (result.failure) throw new HttpError('internal', result.failure);
    const body: (ChatReply | SummarizeResult) & { sessionId: string } = request.chat
      ? { text: result.text, conversationId: conversationId!, answerId, sources: result.sources, sessionId: request.sessionId }
      : { summarized: result.summarized, text: result.text, sources: result.sources, sessionId: request.sessionId };
    return { body };
  }

  await streamEvents(request.res, request.signal, async (stream) => {
    const meta = request.chat ? { conversationId: conversationId!, answerId, sessionId: request.sessionId } : { answerId, sessionId: request.sessionId };
    if (!(await stream.send('meta', meta))) {
      await answer.abandon();
      return;
    }
    const result = await answer.run(stream);
    if (result.outcome === 'aborted') return;
    if (result.failure) {
      await stream.send('error', { error: { code: 'internal', message: result.failure } });
      return;
    }
    const done: ChatReply | SummarizeResult = request.chat
      ? { text: result.text, conversationId: conversationId!, answerId, sources: result.sources }
      : { summarized: result.summarized, text: result.text, sources: result.sources };
    await stream.send('done', done);
  });
}

interface RunResult {
  outcome: AnswerOutcome;
  text: string;
  sources: Source[];
  summarized: boolean;
  /** Set when the answer failed: a message safe to show. */
  failure?: string;
}

/** Thrown inside a run when the client is gone; never leaves the run. */
class ClientGone extends Error {}

/** Retrieval, generation and bookkeeping of one begun answer, written to `stream` when there is one. */
class AnswerRun {
  constructor(
    private readonly request: AnswerRequest,
    private readonly answerId: string,
    private readonly history: Turn[],
  ) {}

  /** The client left before anything happened: settle the answer as aborted. */
  abandon(): Promise<void> {
    return this.settle('aborted', '', [], false);
  }

  async run(stream?: EventStream): Promise<RunResult> {
    const { app, organisation, widget, signal } = this.request;
    const emit = async <Name extends StreamEventName>(event: Name, data: StreamEvents[Name]) => {
      if (stream && !(await stream.send(event, data))) throw new ClientGone();
    };
    let text = '';
    let sources: Source[] = [];
    let delivered = false;
    let outcome: AnswerOutcome = 'complete';
    let failure: string | undefined;
    try {
      const { language } = this.request;
      await emit('status', { status: 'searching' });
      // "… in postgres?": the names of what the documentation is about say where a question belongs, not what it asks.
      const subject = this.request.summary ? undefined : [organisation.name, ...(await sourceNames(app.db, organisation.id, widget.sources))];
      // A summary sits above the search results: it is built from those hits, as the visitor sees them.
      const retrieved = this.request.summary
        ? await summarySections(app.db, {
            organisationId: organisation.id,
            sources: widget.sources,
            query: this.request.question,
            language: widget.config.default_language,
            hits: this.request.summary.hits,
          })
        : await retrieveSections(app.db, {
            organisationId: organisation.id,
            sources: widget.sources,
            question: this.request.question,
            previousQuestions: this.history.filter((turn) => turn.role === 'user').map((turn) => turn.text),
            context: this.request.chat?.context,
            language: widget.config.default_language,
            subject,
          });
      const engine = answerEngine(app);
      // The question as the pages spell it ("decorater" read as "decorator"); the conversation keeps it as typed.
      const input = { question: retrieved.question, history: this.history, sections: groundingOf(retrieved.sections), context: this.request.chat?.context, language, subject };
      // Only what the answer cites is a source; an engine that declines cites nothing.
      const cited = input.sections.length === 0 ? [] : (engine.cites?.(input) ?? input.sections);
      if (!this.request.chat && cited.length === 0) {
        // Nothing to summarise is not a summary: no credit, `summarized: false`, and no card saying "not found" above the results.
        outcome = 'skipped';
        await emit('sources', { sources: [] });
        return { outcome, text: '', sources: [], summarized: false };
      }
      sources = sourcesOf(cited);
      await emit('sources', { sources });
      await emit('status', { status: 'generating' });
      const deltas = cited.length === 0 ? [noAnswerText(language)] : engine.generate({ ...input, signal });
      for await (const delta of deltas) {
        if (signal.aborted) throw new ClientGone();
        if (!delta) continue;
        text += delta;
        await emit('token', { delta });
        if (stream) delivered = true;
      }
      if (signal.aborted) throw new ClientGone();
      return { outcome, text, sources, summarized: true };
    } catch (error) {
      if (error instanceof ClientGone || signal.aborted) {
        outcome = 'aborted';
      } else {
        outcome = 'failed';
        failure = error instanceof AnswerEngineError ? error.message : GENERIC_FAILURE;
        const detail = error instanceof AnswerEngineError ? (error.detail ?? error.message) : ((error as Error)?.stack ?? String(error));
        app.log(`answer ${this.answerId} failed: ${detail}`);
      }
      return { outcome, text, sources, summarized: false, failure };
    } finally {
      // Settled before `done` goes out, so a client that reads the conversation right after sees it complete.
      await this.settle(outcome, text, sources, delivered);
    }
  }

  /**
   * Records the end of the answer. The credit goes back when the answer did not complete and
   * no text reached the client (in JSON mode, nothing reaches it before the reply), and for a
   * summary with nothing to summarise.
   */
  private async settle(outcome: AnswerOutcome, text: string, sources: Source[], delivered: boolean): Promise<void> {
    const { app, organisation } = this.request;
    const refund = outcome === 'skipped' || (outcome !== 'complete' && !delivered);
    await finishAnswer(app.db, {
      answerId: this.answerId,
      organisationId: organisation.id,
      outcome,
      refund,
      message: this.request.chat ? { text, sources } : undefined,
    }).catch((error) => app.log(`answer ${this.answerId}: could not record its end: ${(error as Error)?.message ?? error}`));
  }
}
