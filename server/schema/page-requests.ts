/** Bodies and query parameters of the management API's page routes. */
import * as z from 'zod';
import { LIMITS, PAGE_FORMATS } from '../../wire/contract.js';
import { FIELD_LIMITS } from './limits.js';
import { components } from './registry.js';
import { httpUrl, oneOf, PageMetadata, text } from './fields.js';

const LANGUAGE_MESSAGE = 'must be a language tag like en or pt-BR.';
const language = (description: string) =>
  z
    .string({ error: LANGUAGE_MESSAGE })
    .max(FIELD_LIMITS.languageTag, { error: `is longer than ${FIELD_LIMITS.languageTag} characters.` })
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { error: LANGUAGE_MESSAGE })
    .nullable()
    .meta({ description });

/** A given title, trimmed; one of only blanks is 400. */
const title = (description: string) =>
  text(FIELD_LIMITS.pageTitle, { allowEmpty: true, description })
    .transform((value) => value.trim())
    .pipe(z.string().min(1, { error: 'must not be empty.' }));

const content = (description: string) => text(LIMITS.pageWrite, { allowEmpty: true, description });
const metadata = (description: string) => PageMetadata.nullable().meta({ description });

export const PageWrite = z
  .object({
    url: httpUrl('Absolute http or https URL.'),
    title: title('Optional: when missing it is taken from the HTML `<title>`, the first heading, or the URL.').optional(),
    content: content('The page text in `format`; may be empty.'),
    format: oneOf(PAGE_FORMATS, 'How `content` is written.').default('markdown'),
    language: language('Language tag like `en` or `pt-BR`; `null` clears it.').optional(),
    metadata: metadata('A flat object; `null` clears it.').optional(),
  })
  .meta({ description: `A page to create. Bodies of page writes may be up to ${LIMITS.pageWrite / 1024 / 1024} MiB.` });
components.add(PageWrite, { id: 'PageWrite' });
export type PageWrite = z.output<typeof PageWrite>;

export const PagePatch = z
  .object({
    url: httpUrl('A new absolute http or https URL; another page of the source with it is 409.').optional(),
    title: title('A new title.').optional(),
    content: content('New content, in `format` (or the format the page had).').optional(),
    format: oneOf(PAGE_FORMATS, 'How `content` is written.').optional(),
    language: language('Language tag; `null` clears it.').optional(),
    metadata: metadata('Replaces the metadata; `null` clears it.').optional(),
  })
  .meta({ description: 'Only the fields sent change.' });
components.add(PagePatch, { id: 'PagePatch' });
export type PagePatch = z.output<typeof PagePatch>;

const LIMIT_MESSAGE = `must be a whole number from 1 to ${LIMITS.pageListMax}.`;

export const PageListQuery = z.object({
  limit: z
    .string()
    .regex(/^\d{1,4}$/, { error: LIMIT_MESSAGE })
    .transform(Number)
    .pipe(z.number().min(1, { error: LIMIT_MESSAGE }).max(LIMITS.pageListMax, { error: LIMIT_MESSAGE }))
    .default(LIMITS.pageListDefault)
    .meta({
      description: `How many pages to list: 1–${LIMITS.pageListMax}; default ${LIMITS.pageListDefault}.`,
      type: 'integer',
      minimum: 1,
      maximum: LIMITS.pageListMax,
      default: LIMITS.pageListDefault,
    }),
  cursor: z
    .string()
    .optional()
    .meta({
      description:
        'The `nextCursor` of the previous response. Opaque: pass it back as is. A listing is in creation order, so pages added or ' +
        'deleted between calls never make a page appear twice or be skipped; a cursor the API did not make is 400.',
    }),
});
