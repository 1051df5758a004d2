/**
 * The building blocks of every request schema: one definition per kind of field, each with
 * the 400 message the API has always given (the field's name is put in front by parse.ts),
 * and every limit from limits.ts so the checks and the OpenAPI document agree.
 */
import * as z from 'zod';
import { ID_PATTERN } from '../../wire/contract.js';
import { components } from './registry.js';

/** 0001-01-01T00:00:00Z and the first moment of the year 10000: the years a time may have everywhere it is stored and shown. */
const FIRST_STORABLE_TIME = new Date('0001-01-01T00:00:00Z').getTime();
const END_OF_STORABLE_TIME = new Date('+010000-01-01T00:00:00Z').getTime();

/**
 * Whether a time (milliseconds, from Date.parse) lies in the years 1 to 9999. JavaScript
 * takes years from -271821 to 275760, and ISO strings of years beyond 9999 or before 1 do not
 * round-trip through PostgreSQL (it has no year 0 and reads `+275760` as nothing), so such a
 * time would fail in the database as a 500.
 */
export function storableTime(time: number): boolean {
  return Number.isFinite(time) && time >= FIRST_STORABLE_TIME && time < END_OF_STORABLE_TIME;
}

/** A string; `allowEmpty` lets through one that is empty or only blanks. */
export function text(max: number, { allowEmpty = false, description }: { allowEmpty?: boolean; description?: string } = {}) {
  const type = z.string({ error: (issue) => (issue.input === undefined ? 'is required and must be a string.' : 'must be a string.') });
  const filled = allowEmpty ? type : type.regex(/\S/, { error: 'must not be empty.' });
  const limited = filled.max(max, { error: `is longer than ${max} characters.` });
  return description ? limited.meta({ description }) : limited;
}

/** A string of at most `max` characters, with one message for every way it can be wrong. */
export function shortText(max: number, message = `must be a string of at most ${max} characters.`) {
  return z.string({ error: message }).max(max, { error: message });
}

/** A string matching `pattern`, with one message for every way it can be wrong. */
export const matching = (pattern: RegExp, message: string) => z.string({ error: message }).regex(pattern, { error: message });

/** A whole number from `min` to `max`. */
export function integer(min: number, max: number, description?: string) {
  const message = `must be a whole number from ${min} to ${max}.`;
  const schema = z.int({ error: message }).min(min, { error: message }).max(max, { error: message });
  return description ? schema.meta({ description }) : schema;
}

export const flag = (description: string) => z.boolean({ error: 'must be true or false.' }).meta({ description });

/** One of a fixed list of strings. */
export function oneOf<const Values extends readonly [string, ...string[]]>(values: Values, description?: string) {
  const schema = z.enum(values, { error: `must be one of: ${values.join(', ')}.` });
  return description ? schema.meta({ description }) : schema;
}

const ID_MESSAGE = "must be 1–64 letters, digits, '_' or '-', starting with a letter or digit.";

export const Id = matching(ID_PATTERN, ID_MESSAGE).meta({
  description: 'An opaque identifier (organisation, source, widget, page, conversation).',
  examples: ['acme'],
});
components.add(Id, { id: 'Id' });

/** An opaque id with what it names in this place. */
export const id = (description: string) => Id.meta({ description });

/** A list of strings; `item` checks (and may normalise) each entry. */
export function stringList<Item extends z.ZodType<unknown, string>>(item: Item, { min = 0, max }: { min?: number; max: number }) {
  const count = `must have ${min} to ${max} entries.`;
  return z.array(item, { error: 'must be an array of strings.' }).min(min, { error: count }).max(max, { error: count });
}

const HTTP_URL_MESSAGE = 'must be an absolute http or https URL.';

/** An absolute http or https URL, normalised as the URL parser writes it. */
export function httpUrl(description: string) {
  return text(2048)
    .transform((value, context) => {
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        url = undefined;
      }
      if (url?.protocol === 'http:' || url?.protocol === 'https:') return url.href;
      context.issues.push({ code: 'custom', message: HTTP_URL_MESSAGE, input: value });
      return z.NEVER;
    })
    .meta({ description, format: 'uri' });
}

/** An ISO 8601 time in the years 1 to 9999, for the database and every reader to take. */
export const storableTimeString = (description: string) =>
  shortText(64, 'must be an ISO 8601 time from the year 1 to 9999.')
    .refine((value) => storableTime(Date.parse(value)), { error: 'must be an ISO 8601 time from the year 1 to 9999.' })
    .meta({ description: `${description} ISO 8601, UTC.`, format: 'date-time' });

export type FlatObject = Record<string, string | number | boolean | null>;

/** A flat object of strings, numbers, booleans and nulls. */
export const PageMetadata = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()], { error: 'must be a string, number, boolean or null.' }), {
    error: 'must be a flat JSON object.',
  })
  .meta({ description: 'A flat object: string, number, boolean or null values. Absent when not set.' });
components.add(PageMetadata, { id: 'PageMetadata' });

/** What the SDK accepts as a session id; anything else is refused rather than stored. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const SESSION_ID_MESSAGE = "must be 1–128 letters, digits, '_' or '-'.";

export const SessionId = matching(SESSION_ID_PATTERN, SESSION_ID_MESSAGE).meta({
    description: 'Analytics session id: one per browser tab, reused. When a search or chat request has none, the server makes one and returns it.',
    examples: ['s_0f3c1e5b9a8d4c2e7f6a5b4c3d2e1f00'],
  });
components.add(SessionId, { id: 'SessionId' });

/** The `sessionId` of a search, chat or summary: absent, empty or null means the server makes one. */
export const optionalSessionId = z.union([SessionId, z.literal(''), z.null()], { error: SESSION_ID_MESSAGE }).optional();

/** A secret the caller chose (fixture files only): `prefix` and at least 8 printable characters. */
export function chosenSecret(prefix: string, description: string) {
  const message = `must start with ${prefix} and be at least 8 printable characters.`;
  return shortText(200, message)
    .refine((value) => value.startsWith(prefix) && /^[\x21-\x7e]{8,200}$/.test(value), { error: message })
    .meta({ description });
}

/** A member the server makes itself (a secret): naming it at all is 400. */
export const generatedByServer = z.never({ error: 'is generated by the server and cannot be chosen; leave it out.' }).optional();

// Response members, for the document: their type and what they mean.

export const described = (description: string) => z.string().meta({ description });
export const timestamp = (description: string) => z.string().meta({ description: `${description} ISO 8601, UTC.`, format: 'date-time' });
export const count = (description: string) => z.int().min(0).meta({ description });
