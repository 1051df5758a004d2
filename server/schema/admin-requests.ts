/**
 * What the admin API, the command line and fixture files send to create and change
 * organisations, sources, widgets and API keys, and the analytics period the admin API reads.
 */
import * as z from 'zod';
import { LIMITS, LOCALES, PERMISSIONS, PLANS, THEMES, WIDGET_TYPES, type Permission as PermissionName } from '../../wire/contract.js';
import { parseEntry } from './website-entry.js';
import { FIELD_LIMITS } from './limits.js';
import { components } from './registry.js';
import { chosenSecret, flag, generatedByServer, id, Id, integer, matching, oneOf, storableTime, stringList, text } from './fields.js';

/** Path segments the API itself uses right after `/api/v1/`; an organisation by that id could not be reached. */
const RESERVED_ORGANISATION_IDS = ['admin'];

/** An organisation id: an opaque id, and not one of the reserved ones (compared case-insensitively, to avoid look-alikes). */
export const OrganisationId = id('Chosen by the caller. `admin` (in any case) is reserved: `/api/v1/admin/` is the admin API.').superRefine((value, context) => {
  if (RESERVED_ORGANISATION_IDS.includes(value.toLowerCase())) {
    context.addIssue({ code: 'custom', message: `"${value}" is reserved: /api/v1/${value.toLowerCase()}/ is the server's own path.`, input: value });
  }
});

const displayName = (description: string) => text(FIELD_LIMITS.name, { allowEmpty: true, description });
const EVENTS_PER_DAY = 'Analytics events the organisation may store per day (UTC); beyond it events are dropped and counted, never stored.';

export const Plan = oneOf(PLANS, '`free` (default): the config always says `branding: true`. `pro`: a widget may set `branding: false`.');
components.add(Plan, { id: 'Plan' });

export const OrganisationCreate = z.object({
  id: OrganisationId,
  name: displayName('Display name; defaults to the id.').optional(),
  credits: integer(0, FIELD_LIMITS.count, 'Answer credits; default 0.').default(0),
  plan: Plan.default('free'),
  eventsPerDay: integer(0, FIELD_LIMITS.count, `${EVENTS_PER_DAY} Default: the server's \`--events-per-day\` (${FIELD_LIMITS.eventsPerDayDefault} unless set).`).optional(),
});
components.add(OrganisationCreate, { id: 'OrganisationCreate' });

export const OrganisationUpdate = z
  .object({
    name: displayName('Display name.').optional(),
    plan: Plan.optional(),
    credits: integer(0, FIELD_LIMITS.count, 'Sets the answer credits.').optional(),
    eventsPerDay: integer(0, FIELD_LIMITS.count, EVENTS_PER_DAY).optional(),
  })
  .meta({ description: 'Only the fields sent change.' });
components.add(OrganisationUpdate, { id: 'OrganisationUpdate' });

export const SourceCreate = z.object({ id: Id, name: displayName('Display name; defaults to the id.').optional() });
components.add(SourceCreate, { id: 'SourceCreate' });

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const colour = (description: string, fallback: string) =>
  matching(HEX_COLOUR, 'must be a hex colour like #2557d6.').meta({ description, default: fallback });

/**
 * An avatar loads in the visitor's page: an absolute https URL, or a path on the page's own
 * site beginning with one `/`. `//host/…` (and `/\\host/…`, which browsers read alike) is
 * another host, and plain http would be mixed content on an https page.
 */
function avatarLoadsSafely(avatar: string): boolean {
  let absolute: URL | undefined;
  try {
    absolute = new URL(avatar);
  } catch {
    absolute = undefined;
  }
  const ownPath = /^\/(?![\/\\])/.test(avatar) && !absolute;
  return ownPath || (absolute?.protocol === 'https:' && absolute.hostname !== '' && /^https:\/\//i.test(avatar));
}

const AVATAR_MESSAGE = 'must be an absolute https URL, a path beginning with a single "/", or null.';
const SUGGESTION_MESSAGE = `entries must be questions of 1 to ${LIMITS.suggestionLength} characters.`;

/** The settable presentation fields of spec 2.4, each of its type; any other member is 400. */
export const WidgetSettings = z
  .strictObject(
    {
      variant: oneOf(['bubble', 'inline', 'modal'], 'Chat: `bubble` (default) or `inline`. Search: `modal` (default) or `inline`.').optional(),
      accent_light: colour('Accent colour in light mode, hex.', '#2557d6').optional(),
      accent_dark: colour('Accent colour in dark mode, hex.', '#8ab4ff').optional(),
      theme: oneOf(THEMES, 'Colour scheme.').meta({ default: 'auto' }).optional(),
      branding: flag('Shows "Powered by Assist". Always true on the `free` plan; a paid plan (`pro`) may set false.').meta({ default: true }).optional(),
      summary: flag('Search only: an AI summary above the results (spends answer credits).').meta({ default: false }).optional(),
      speech_input: flag('A microphone button where the browser supports it.').meta({ default: false }).optional(),
      placeholder: text(FIELD_LIMITS.widgetText, { allowEmpty: true, description: 'Input placeholder; may be empty.' }).meta({ default: '' }).optional(),
      greeting: text(FIELD_LIMITS.widgetText, { allowEmpty: true, description: 'Chat only: the first assistant message; may be empty.' }).meta({ default: '' }).optional(),
      avatar: z
        .string({ error: AVATAR_MESSAGE })
        .max(FIELD_LIMITS.url, { error: `is longer than ${FIELD_LIMITS.url} characters.` })
        .refine(avatarLoadsSafely, { error: AVATAR_MESSAGE })
        .nullable()
        .optional()
        .meta({ description: 'Chat only: image URL (https, or a path on the page\'s own site) of the assistant; null when absent.', default: null }),
      debounce: integer(0, FIELD_LIMITS.debounceMs, 'Search only: milliseconds to wait after typing.').meta({ default: 1000 }).optional(),
      default_language: oneOf(LOCALES, 'Fallback UI language.').meta({ default: 'en' }).optional(),
      suggestions: stringList(
        z
          .string()
          .transform((question) => question.trim())
          .pipe(z.string().min(1, { error: SUGGESTION_MESSAGE }).max(LIMITS.suggestionLength, { error: SUGGESTION_MESSAGE })),
        { max: LIMITS.suggestions },
      )
        .meta({ description: 'Example questions the empty search modal and the empty chat offer.', default: [] })
        .optional(),
    },
    { error: 'must be an object.' },
  )
  .meta({
    description:
      'Settable presentation fields of spec 2.4; any other member is 400. The ones not set take their defaults. ' +
      '`variant` must fit the widget type. On the `free` plan `branding` is reported true whatever is set here.',
  });
components.add(WidgetSettings, { id: 'WidgetSettings' });
export type WidgetSettings = z.output<typeof WidgetSettings>;

const widgetSources = (description?: string) => {
  const list = stringList(Id, { min: 1, max: FIELD_LIMITS.widgetSources });
  return description ? list.meta({ description }) : list;
};

/** Website list entries, trimmed and lowercased: hosts the origin check can match. */
const websites = (description: string) =>
  stringList(z.string().meta({ description: 'A host, host:port or *.domain.' }), { max: FIELD_LIMITS.websites })
    .transform((entries, context) => {
      const normalised = entries.map((entry) => entry.trim().toLowerCase());
      const wrong = normalised.findIndex((entry) => !parseEntry(entry));
      if (wrong >= 0) {
        context.issues.push({ code: 'custom', message: `entry "${entries[wrong]}" is not a host like example.com, localhost:8787 or *.example.com.`, input: entries });
      }
      return normalised;
    })
    .meta({ description });

const widgetFields = {
  id: Id,
  type: oneOf(WIDGET_TYPES, 'Widget type.'),
  name: displayName('Display name; defaults to the id.').optional(),
  sources: widgetSources('Sources of this organisation it searches and answers from.'),
  websites: websites('The website list; default empty (no browser may call it).').default([]),
  config: WidgetSettings.default({}),
};

export const WidgetCreate = z
  .object({ ...widgetFields, secret: generatedByServer, signingSecret: generatedByServer })
  .meta({ description: 'The server makes the widget secret and the signing secret; a body naming `secret` or `signingSecret` is 400.' });
components.add(WidgetCreate, { id: 'WidgetCreate' });

/** A widget in a fixture file, whose secrets are taken as given. */
export const FixtureWidget = z.object({
  ...widgetFields,
  secret: chosenSecret('ws_', 'The widget secret, taken as given.').optional(),
  signingSecret: text(FIELD_LIMITS.name, { description: 'The identity signing secret, taken as given.' }).optional(),
});

export const WidgetUpdate = z
  .object({
    name: displayName('Display name.').optional(),
    sources: widgetSources().optional(),
    websites: websites('A new website list.').optional(),
    config: WidgetSettings.optional().meta({ description: 'Replaces the whole config.' }),
  })
  .meta({ description: 'Only the fields sent change.' });
components.add(WidgetUpdate, { id: 'WidgetUpdate' });
export type WidgetUpdate = z.output<typeof WidgetUpdate>;

export const Permission = oneOf(PERMISSIONS, 'An API key permission.');
components.add(Permission, { id: 'Permission' });

const apiKeyFields = {
  name: text(FIELD_LIMITS.name, { description: 'What the key is for.' }),
  // Entries are checked on the whole list, so the message names `permissions` and the wrong entry.
  permissions: stringList(z.string(), { min: 1, max: PERMISSIONS.length })
    .transform((permissions, context) => {
      const wrong = permissions.find((permission) => !(PERMISSIONS as readonly string[]).includes(permission));
      if (wrong !== undefined) context.issues.push({ code: 'custom', message: `entry "${wrong}" is not one of ${PERMISSIONS.join(', ')}.`, input: permissions });
      return [...new Set(permissions as PermissionName[])];
    })
    .meta({ items: { $ref: '#/components/schemas/Permission' } }),
  sources: stringList(Id, { min: 1, max: FIELD_LIMITS.widgetSources }).optional().meta({ description: 'The source limit; omit for every source of the organisation.' }),
};

export const ApiKeyCreate = z.object({ ...apiKeyFields, key: generatedByServer }).meta({ description: 'The server makes the key; a body naming `key` is 400.' });
components.add(ApiKeyCreate, { id: 'ApiKeyCreate' });

/** An API key in a fixture file: the key itself is given, so applying the file again finds it. */
export const FixtureApiKey = z.object({ ...apiKeyFields, key: chosenSecret('ak_', 'The API key, taken as given.') });

export type OrganisationCreate = z.output<typeof OrganisationCreate>;
export type OrganisationUpdate = z.output<typeof OrganisationUpdate>;
export type SourceCreate = z.output<typeof SourceCreate>;
export type WidgetCreate = z.output<typeof FixtureWidget>;
export type ApiKeyCreate = z.output<typeof ApiKeyCreate> | z.output<typeof FixtureApiKey>;

// The analytics period.

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const periodBound = (name: 'from' | 'to', description: string, example: string) =>
  z
    .string()
    .max(FIELD_LIMITS.periodBound, { error: 'must be an ISO 8601 date or time from the year 1 to 9999.' })
    .optional()
    .meta({ description, example });

/**
 * `from` and `to` query parameters: ISO dates or times; by default the last 30 days. A date
 * without a time means the whole day: `to=2025-01-31` includes January 31st.
 */
export const AnalyticsQuery = z
  .object({
    from: periodBound('from', 'Start of the period: an ISO 8601 date or time. Default: 30 days before `to`.', '2025-01-01'),
    to: periodBound('to', 'End of the period: an ISO 8601 date or time; a date alone includes that whole day. Default: now.', '2025-01-31'),
  })
  .transform(({ from, to }, context) => {
    const read = (name: 'from' | 'to', value: string | undefined): Date | undefined => {
      if (value === undefined || value === '') return undefined;
      const parsed = Date.parse(value);
      const time = name === 'to' && DATE_ONLY.test(value) ? parsed + DAY_MS : parsed;
      if (storableTime(time)) return new Date(time);
      context.issues.push({ code: 'custom', path: [name], message: 'must be an ISO 8601 date or time from the year 1 to 9999.', input: value });
      return undefined;
    };
    const end = read('to', to) ?? new Date();
    const start = read('from', from) ?? new Date(end.getTime() - 30 * DAY_MS);
    if (start.getTime() >= end.getTime()) context.issues.push({ code: 'custom', path: ['from'], message: 'must be before `to`.', input: from });
    return { from: start, to: end };
  });
export type AnalyticsPeriod = z.output<typeof AnalyticsQuery>;
