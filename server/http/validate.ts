import { ID_PATTERN } from '../../wire/contract.js';
import { badRequest } from './errors.js';

/** Field readers that turn a wrongly typed or missing field into 400 naming the field. */
export type Body = Record<string, unknown>;

export function requireString(body: Body, field: string, { max = 100_000, allowEmpty = false } = {}): string {
  const value = body[field];
  if (typeof value !== 'string') throw badRequest(`\`${field}\` is required and must be a string.`);
  if (!allowEmpty && value.trim() === '') throw badRequest(`\`${field}\` must not be empty.`);
  if (value.length > max) throw badRequest(`\`${field}\` is longer than ${max} characters.`);
  return value;
}

export function optionalString(body: Body, field: string, options: { max?: number; allowEmpty?: boolean } = {}): string | undefined {
  return body[field] === undefined ? undefined : requireString(body, field, { allowEmpty: true, ...options });
}

export function optionalBoolean(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`\`${field}\` must be true or false.`);
  return value;
}

export function optionalInteger(body: Body, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`\`${field}\` must be a whole number from ${min} to ${max}.`);
  }
  return value;
}

export function requireOneOf<T extends string>(body: Body, field: string, allowed: readonly T[], fallback?: T): T {
  const value = body[field];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw badRequest(`\`${field}\` must be one of: ${allowed.join(', ')}.`);
  }
  return value as T;
}

export function requireId(value: unknown, field: string): string {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) {
    throw badRequest(`\`${field}\` must be 1–64 letters, digits, '_' or '-', starting with a letter or digit.`);
  }
  return value;
}

export function requireStringArray(body: Body, field: string, { min = 0, max = 1000, item = (value: string) => value } = {}): string[] {
  const value = body[field];
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
    throw badRequest(`\`${field}\` must be an array of strings.`);
  }
  if (value.length < min || value.length > max) throw badRequest(`\`${field}\` must have ${min} to ${max} entries.`);
  return (value as string[]).map(item);
}

export function optionalStringArray(body: Body, field: string, options?: Parameters<typeof requireStringArray>[2]): string[] | undefined {
  return body[field] === undefined ? undefined : requireStringArray(body, field, options);
}

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

/** An absolute http or https URL. */
export function requireHttpUrl(body: Body, field: string): string {
  const value = requireString(body, field, { max: 2048 });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`\`${field}\` must be an absolute http or https URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`\`${field}\` must be an absolute http or https URL.`);
  return url.href;
}

/** A flat object of strings, numbers, booleans and nulls. */
export function optionalFlatObject(body: Body, field: string): Record<string, string | number | boolean | null> | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`\`${field}\` must be a flat JSON object.`);
  for (const [key, member] of Object.entries(value)) {
    if (member !== null && !['string', 'number', 'boolean'].includes(typeof member)) {
      throw badRequest(`\`${field}.${key}\` must be a string, number, boolean or null.`);
    }
  }
  return value as Record<string, string | number | boolean | null>;
}
