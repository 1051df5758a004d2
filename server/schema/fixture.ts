/**
 * A fixture file (contract: "Setting up organisations, widgets and keys"): the same shapes the
 * admin API takes, nested, with secrets taken as given and sources that may name a folder.
 */
import * as z from 'zod';
import { httpUrl, text } from './fields.js';
import { FixtureApiKey, FixtureWidget, OrganisationCreate, SourceCreate } from './admin-requests.js';
import { PageWrite } from './page-requests.js';

const FixtureSource = SourceCreate.extend({
  /** A folder of markdown files, every one a page (resolved against the fixture file's folder when read). */
  folder: text(4096).optional(),
  baseUrl: httpUrl('The address the folder\'s pages live at.')
    .refine((url) => url.endsWith('/'), { error: 'must end with "/": the files\' paths are appended to it.' })
    .optional(),
  pages: z.array(PageWrite).default([]),
}).refine((source) => source.folder === undefined || source.baseUrl !== undefined, { error: 'is required with `folder`.', path: ['baseUrl'] });
export type FixtureSource = z.output<typeof FixtureSource>;

const FixtureOrganisation = OrganisationCreate.extend({
  sources: z.array(FixtureSource).default([]),
  apiKeys: z.array(FixtureApiKey).default([]),
  widgets: z.array(FixtureWidget).default([]),
});

export const Fixture = z.object({ organisations: z.array(FixtureOrganisation).default([]) });
export type Fixture = z.output<typeof Fixture>;
