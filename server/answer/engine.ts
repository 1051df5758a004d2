/**
 * Answer engines behind one interface. An engine turns a question and the retrieved
 * sections into the answer's text, as a stream of deltas; it never searches and never
 * touches the database. Which engine runs is configuration:
 *
 * - `ASSIST_LLM_BASE_URL` set: an OpenAI-compatible `chat/completions` server (OpenAI,
 *   Ollama, vLLM, llama.cpp's server), with `ASSIST_LLM_MODEL` and optionally
 *   `ASSIST_LLM_API_KEY`, `ASSIST_LLM_TIMEOUT_MS` (connect and first byte, default 20 000)
 *   and `ASSIST_LLM_IDLE_TIMEOUT_MS` (longest pause between chunks, default 30 000).
 * - otherwise the embedded engine: no network, no model (`ASSIST_EMBEDDED_TOKEN_DELAY_MS`
 *   paces its pieces, default 0).
 *
 * @example
 * const engine = answerEngineFromEnv(process.env);
 * for await (const delta of engine.generate({ question, history: [], sections, language: 'en', signal })) write(delta);
 */
import type { AppContext } from '../context.js';
import { createEmbeddedEngine } from './embedded.js';
import { createOpenAiEngine } from './openai.js';
import type { AnswerEngine } from './types.js';

export type { AnswerEngine, GenerateInput, GroundingSection, PageContext, Turn } from './types.js';
export { AnswerEngineError } from './types.js';

/** Picks the engine the environment configures (see the module comment). */
export function answerEngineFromEnv(env: NodeJS.ProcessEnv = process.env): AnswerEngine {
  const baseUrl = env.ASSIST_LLM_BASE_URL?.trim();
  if (baseUrl) {
    const model = env.ASSIST_LLM_MODEL?.trim();
    if (!model) throw new Error('ASSIST_LLM_BASE_URL is set, so ASSIST_LLM_MODEL must name the model to use.');
    return createOpenAiEngine({
      baseUrl,
      model,
      apiKey: env.ASSIST_LLM_API_KEY?.trim() || undefined,
      timeoutMs: positiveInteger(env.ASSIST_LLM_TIMEOUT_MS, 'ASSIST_LLM_TIMEOUT_MS'),
      idleTimeoutMs: positiveInteger(env.ASSIST_LLM_IDLE_TIMEOUT_MS, 'ASSIST_LLM_IDLE_TIMEOUT_MS'),
    });
  }
  return createEmbeddedEngine({ tokenDelayMs: positiveInteger(env.ASSIST_EMBEDDED_TOKEN_DELAY_MS, 'ASSIST_EMBEDDED_TOKEN_DELAY_MS') });
}

function positiveInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+$/.test(value.trim())) throw new Error(`${name} must be a whole number of milliseconds.`);
  return Number(value);
}

/** The server's engine (`app.services.answerEngine`, where tests may put their own), created from the environment on first use. */
export function answerEngine(app: AppContext): AnswerEngine {
  return (app.services.answerEngine ??= answerEngineFromEnv());
}
