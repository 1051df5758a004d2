/** What the admin API (and the command line, which prints the same) answers. */
import * as z from 'zod';
import { WIDGET_TYPES } from '../../wire/contract.js';
import { Permission, Plan, WidgetSettings } from './admin-requests.js';
import { count, described, Id, timestamp } from './fields.js';
import { components } from './registry.js';

const EVENTS_PER_DAY = 'Analytics events the organisation may store per day (UTC); beyond it events are dropped and counted, never stored.';
const widgetType = z.enum(WIDGET_TYPES).meta({ description: 'Widget type.' });
const widgetKey = described('The widget key.');

export const Organisation = z.object({
  id: Id,
  name: described('Display name.'),
  plan: Plan,
  credits: count('Answer credits left.'),
  eventsPerDay: count(EVENTS_PER_DAY),
});
components.add(Organisation, { id: 'Organisation' });

export const OrganisationDetail = z
  .intersection(
    Organisation,
    z.object({
      eventsToday: z.object({
        stored: count('Analytics events stored today (UTC).'),
        dropped: count('Events dropped today because the organisation reached `eventsPerDay`.'),
      }),
      sources: z.array(z.object({ id: Id, name: described('Display name.'), pages: count('Page count.') })),
      widgets: z.array(
        z.object({
          id: Id,
          type: widgetType,
          name: described('Display name.'),
          sources: z.array(Id),
          websites: z.array(described('Website list entry.')),
          config: WidgetSettings,
        }),
      ),
      apiKeys: z.array(
        z.object({
          id: described('`key_…`'),
          name: described('What it is for.'),
          permissions: z.array(Permission),
          sources: z.array(Id).nullable(),
          createdAt: timestamp('Created.'),
          revokedAt: timestamp('Revoked; `null` while valid.').nullable(),
        }),
      ),
    }),
  )
  .meta({ description: 'An organisation with what it holds; never a secret.' });
components.add(OrganisationDetail, { id: 'OrganisationDetail' });

export const OrganisationListing = z.object({ organisations: z.array(OrganisationDetail).meta({ description: 'By id.' }) });
components.add(OrganisationListing, { id: 'OrganisationListing' });

export const SourceRecord = z.object({ id: Id, name: described('Display name.') });
components.add(SourceRecord, { id: 'SourceRecord' });

export const Widget = z.object({
  organisation: Id,
  id: Id,
  key: z.string().meta({ description: 'The public widget key, `{organisation}/{widget}`, for `Assist.chat(key)` and friends.', examples: ['acme/help'] }),
  type: widgetType,
  name: described('Display name.'),
  sources: z.array(Id),
  websites: z.array(described('Website list entry, lowercased.')),
  config: WidgetSettings,
});
components.add(Widget, { id: 'Widget' });

export const CreatedWidget = z.intersection(
  Widget,
  z.object({
    secret: described('The widget secret, `ws_…`. Shown only this once; stored as a hash.'),
    signingSecret: described("The identity signing secret, `sig_…`, for the integrator's server to sign visitor ids. Never send it to a browser."),
  }),
);
components.add(CreatedWidget, { id: 'CreatedWidget' });
export type CreatedWidget = z.output<typeof CreatedWidget>;

export const WidgetSecret = z.object({ widget: widgetKey, secret: described('The new widget secret; shown only this once. The old one no longer works.') });
components.add(WidgetSecret, { id: 'WidgetSecret' });

export const SigningSecret = z.object({
  widget: widgetKey,
  signingSecret: described('The new identity signing secret.'),
  previousValidUntil: timestamp('Until when hashes made with the previous signing secret are still accepted (24 hours).'),
});
components.add(SigningSecret, { id: 'SigningSecret' });

export const PreviewToken = z.object({ widget: widgetKey, token: described('`pt_…`; shown only this once.'), expiresAt: timestamp('One hour after minting.') });
components.add(PreviewToken, { id: 'PreviewToken' });

export const CreatedApiKey = z.object({
  id: described("The key's public id, `key_…`, used to revoke it."),
  organisation: Id,
  name: described('What the key is for.'),
  permissions: z.array(Permission),
  sources: z.array(Id).nullable(),
  key: described('The API key, `ak_…`. Shown only this once; stored as a hash.'),
});
components.add(CreatedApiKey, { id: 'CreatedApiKey' });

export const RevokedApiKey = z.object({ id: described('The key id.'), revoked: z.literal(true) });
components.add(RevokedApiKey, { id: 'RevokedApiKey' });

const QueryCount = z.object({ query: described('The query, lowercased and trimmed.'), searches: count('How often it was searched.') });
components.add(QueryCount, { id: 'QueryCount' });

const rate = (description: string) => z.number().min(0).max(1).meta({ description });

export const WidgetAnalytics = z
  .object({
    widget: widgetKey,
    from: timestamp('Start of the period (included).'),
    to: timestamp('End of the period (excluded).'),
    sessions: count('Distinct sessions with a search, answer or click in the period.'),
    searches: count('Searches.'),
    topQueries: z.array(QueryCount).meta({ description: 'Most frequent queries, at most 20.' }),
    noResultQueries: z.array(QueryCount).meta({ description: 'Most frequent queries that found nothing, at most 20.' }),
    clicks: count('Clicks.'),
    searchesWithClicks: count('Searches followed by at least one click on one of their results.'),
    clickThroughRate: rate('`searchesWithClicks / searches` (0 without searches), to 4 decimals.'),
    clicksByRank: z.array(z.object({ rank: count('Result position, 1 first; `null` for clicks sent without one.').nullable(), clicks: count('Clicks.') })),
    answers: z.object({ chat: count('Complete chat answers.'), summaries: count('Complete summaries.'), total: count('Both.') }),
    creditsSpent: count('Answer credits spent (returned credits not counted).'),
    feedback: z.object({
      helpful: count('Answers rated helpful (a rating counts in the period it was last changed in).'),
      unhelpful: count('Answers rated not helpful.'),
      helpfulRate: rate('`helpful / (helpful + unhelpful)` to 4 decimals; `null` without ratings.').nullable(),
      unhelpfulAnswers: z
        .array(
          z.object({
            answerId: described('The answer.'),
            kind: z.enum(['chat', 'summary']).meta({ description: 'A chat reply or a search summary.' }),
            question: described("What was asked; `null` once a chat's conversation is deleted.").nullable(),
            comment: described("The visitor's comment.").nullable(),
            ratedAt: timestamp('When it was rated.'),
          }),
        )
        .meta({ description: 'The latest answers rated not helpful, at most 50, newest first.' }),
    }),
  })
  .meta({ description: "A widget's search and answer analytics over a period." });
components.add(WidgetAnalytics, { id: 'WidgetAnalytics' });
export type WidgetAnalytics = z.output<typeof WidgetAnalytics>;
