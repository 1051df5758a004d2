/**
 * Checking input against a schema: the typed value, or the contract's 400 naming the first
 * field that is wrong, the way the caller wrote it (`events[0].props.url`, `config.avatar`).
 *
 * Schemas are written with Zod 4 rather than TypeBox: its checks carry their own error
 * messages and refinements (a URL that parses, a host the website list can match), its
 * transforms give store functions the normalised value (trimmed, lowercased, defaults
 * filled), and `z.toJSONSchema` makes the OpenAPI document's JSON Schema 2020-12 from the
 * same objects. It is a server dependency only: the browser imports the plain types of
 * wire/contract.ts and never this module, so the widget bundle does not pay for it.
 */
import * as z from 'zod';
import { badRequest } from '../errors.js';

/** `['events', 0, 'props', 'url']` → `events[0].props.url`. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)), '');
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  record: 'a flat JSON object',
  null: 'null',
};

/**
 * What a check says when its schema gives no message of its own; the field's name is put in
 * front of it. Checks whose wording the API promises (see fields.ts) bring their own.
 */
const fallbackMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required.' : `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}.`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'too_big':
      return issue.origin === 'array' ? `must have at most ${issue.maximum} entries.` : issue.origin === 'string' ? `is longer than ${issue.maximum} characters.` : `must be at most ${issue.maximum}.`;
    case 'too_small':
      return issue.origin === 'array' ? `must have at least ${issue.minimum} entries.` : issue.origin === 'string' ? 'must not be empty.' : `must be at least ${issue.minimum}.`;
    default:
      return 'is not valid.';
  }
};

/** The 400 message of the first issue: the field, then what is wrong with it. */
function describe(issue: z.core.$ZodIssue, prefix: readonly PropertyKey[]): string {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') return `\`${fieldName([...path, issue.keys[0]!])}\` is not a field of ${path.length > 0 ? `\`${fieldName(path)}\`` : 'this body'}.`;
  return path.length > 0 ? `\`${fieldName(path)}\` ${issue.message}` : `The body ${issue.message}`;
}

/**
 * `value` checked against `schema`: its output (defaults filled, values normalised), or a
 * 400 `invalid_request` naming the first wrong field. `at` is where the value sits in a larger
 * document (a fixture file's `organisations[0].widgets[1]`), so the message names that path.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, at: readonly PropertyKey[] = []): z.output<Schema> {
  const result = schema.safeParse(value, { error: fallbackMessage });
  if (result.success) return result.data;
  throw badRequest(describe(result.error.issues[0]!, at));
}
