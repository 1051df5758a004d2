/**
 * What an answer holds, through the real chat and summarize routes: the passage that
 * answers (not scattered sentences), its code example byte for byte, inline code with its
 * backticks, only the cited sections as sources, summaries that agree with the search
 * results, and the engine's own words in the visitor's language.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCALES } from '../../wire/contract.js';
import { NO_ANSWER, composeAnswer } from '../../server/answer/embedded.js';
import { isReleaseNotes } from '../../server/search/release-notes.js';
import { startTestServer, type TestServer } from './harness.js';
import { CHAT, PYTHON_SNIPPET, SIGNING_PAGE, SUMMARIZE, answerFixture, streamRequest } from './answer-helpers.js';

const QUALITY_PAGES = [
  {
    url: 'https://acme.test/docs/statement-formats',
    title: 'Statement formats',
    content: ['# Statement formats', '', 'Bank statements can be downloaded in these formats:', '', ...['CSV spreadsheet', 'JSON document', 'Parquet columns', 'Avro records', 'XML document', 'YAML document', 'TOML document', 'NDJSON lines', 'Excel workbook', 'OpenDocument sheet', 'SQLite database', 'Quicken interchange'].map((format) => `- ${format}`)].join('\n'),
  },
  {
    url: 'https://acme.test/docs/report-queries',
    title: 'Report queries',
    content: [
      '# Report queries',
      '',
      '## Filtering groups',
      '',
      '`HAVING` keeps the groups whose condition is true, after `GROUP BY`. `WHERE` filters the rows before they are grouped.',
      '',
      '## Sorting reports',
      '',
      'Having sorted the rows, the report is written where you chose to keep it.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/billing',
    title: 'Billing',
    content: [
      '# Billing',
      '',
      'Acme bills every organisation once a month. You can ask questions about a bill in the dashboard.',
      '',
      '## Refunds',
      '',
      'To ask for a refund, write to the billing desk at billing@acme.test with your order number. Refunds reach your card within ten days.',
      '',
      '## Invoices',
      '',
      'Invoices are sent by email on the first day of the month. Ask the billing desk for a copy of an older invoice.',
      '',
      '© Copyright 2001-2026, Acme Foundation.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/faq',
    title: 'Frequently asked questions',
    content: [
      '# Frequently asked questions',
      '',
      'Customers ask about many things. This page lists a few.',
      '',
      '## Options',
      '',
      '- `--refund-days`: how many days a refund may take.',
      '- `--order-prefix`: the prefix of every order number.',
      '- `--ask-timeout`: how long to wait.',
    ].join('\n'),
  },
  SIGNING_PAGE,
  {
    url: 'https://acme.test/docs/python-api',
    title: 'Python API',
    content: ['# Python API', '', '## acme.export_invoices(month, *, path=None)', '', 'Writes the invoices of a month to a CSV file and returns its path.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/context-managers',
    title: 'Context managers',
    content: [
      '# Context managers',
      '',
      '## Writing a context manager class',
      '',
      'A class works with the `with` statement when it defines `__enter__` and `__exit__`: `__enter__` runs when the block starts and `__exit__` when it ends.',
      '',
      '```python',
      'class Timer:',
      '    def __enter__(self):',
      '        return self',
      '',
      '    def __exit__(self, *exc):',
      '        return False',
      '```',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/release-notes/2.3',
    title: 'Release 2.3: signing keys',
    content: [
      '# Release 2.3: signing keys',
      '',
      '## Rotating the signing key',
      '',
      'To rotate the signing key, use the widget settings.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/keys',
    title: 'Signing keys',
    content: [
      '# Signing keys',
      '',
      '## Rotating the signing key',
      '',
      'To rotate the signing key, open the widget settings and press New key; the old key keeps working for one day.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/contents',
    title: 'Contents',
    content: [
      '# Contents',
      '',
      ...[
        'Exporting the archive folder', 'Archive folder layout', 'Moving the archive folder', 'Archive folder permissions', 'Exporting reports',
        'Report archive', 'Folder names', 'Archive retention', 'Archive size', 'Export formats', 'Archive folder backups', 'Export schedules',
      ].map((entry, index) => `- [${entry}](https://acme.test/docs/page-${index})`),
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/archive',
    title: 'Archive',
    content: [
      '# Archive',
      '',
      'Source code: acme/archive.py',
      '',
      '## Exporting the archive',
      '',
      'Every night the archive is written to the export directory you choose in the settings, one file per day.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/kilns',
    title: 'Kilns',
    content: [
      '# Kilns',
      '',
      '## Firing schedules',
      '',
      'Each kiln fires on its own schedule, which the studio sets when the kiln is added.',
      '',
      '## Altering a firing schedule',
      '',
      'To alter the firing schedule of a kiln, call `kiln.reschedule(at)`; firings already started keep their time.',
      '',
      '## Executing a glaze test',
      '',
      'A glaze test is executed with `kiln.test_glaze(name)`, on the next firing.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/glossary',
    title: 'Glossary',
    content: [
      '# Glossary',
      '',
      '## widget secret',
      '',
      'The token a page sends to prove it may use a widget. It is shown once, when the widget is created, and a widget secret can be replaced at any time.',
      '',
      '## GRV',
      '',
      'See gross refund value.',
      '',
      '## gross refund value',
      '',
      'The sum of the refunds a storefront paid in a month, before fees are taken off.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/scheduled-transfers',
    title: 'Scheduled transfers',
    content: [
      '# Scheduled transfers',
      '',
      'Scheduled transfers move a balance every night. To create a scheduled transfer, open the balance, press Schedule and pick the hour of the transfer.',
      'A scheduled transfer can be paused, and a transfer that failed is tried again the next night.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/transfers',
    title: 'Transfers',
    content: [
      '# Transfers',
      '',
      'To create a transfer, open the balance and press Transfer: the amount reaches the other account within a day.',
      '',
      'The balance page lists the amounts that came in and went out each day, with the name of the other account, the reference the payer gave and the fees that were taken off, so the bookkeeper can match every amount with an invoice.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/settlement',
    title: 'Settlement',
    content: [
      '# Settlement',
      '',
      '## DSQ internals',
      '',
      'DSQ records are appended to the DSQ files as each payment arrives. The DSQ writer flushes the DSQ every second, and DSQ files are recycled once settled.',
      '',
      '## Delayed Settlement Queue (DSQ)',
      '',
      'Delayed Settlement Queue (DSQ) is where Acme holds a payment until the bank confirms it. A payment leaves the queue once it is settled.',
      '',
      '## When settlement is skipped',
      '',
      'Settlement is skipped on bank holidays. Even then, the following payments are settled:',
      '',
      '- Payments of the storefront itself, and those of its staff, which are settled in full, on the day they are made, so the storefront can go on selling:',
      '  - refunds to a card',
      '  - payouts to a bank account',
      '- Payments held for review, which wait for a person to look at them.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/debugging',
    title: 'Debugging',
    content: [
      '# Debugging',
      '',
      '## Debug output',
      '',
      'The debug output of a widget lists every request it sends.',
      '',
      'Debug output can be enabled with the `--debug` option of the server.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/reports',
    title: 'Reports',
    content: [
      '# Reports',
      '',
      '## Exporting reports',
      '',
      'Reports are exported by `acme.export_reports`, once per month.',
      '',
      'Each export writes one file.',
      '',
      'Files are kept for a year.',
      '',
      '```python',
      'acme.export_reports(month=3)',
      '```',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/language',
    title: 'Template language',
    content: [
      '# Template language',
      '',
      '## Statements',
      '',
      'A statement is one instruction of a template.',
      '',
      '## The with statement',
      '',
      'Runs its block with a name bound to a value, and unbinds the name when the block ends.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/api-reference',
    title: 'API reference',
    content: [
      '# API reference',
      '',
      '## class acme.Ledger(month)',
      '',
      'A ledger of one month, with one row per order; `Ledger.close()` ends it.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/concepts',
    title: 'Concepts',
    content: ['# Concepts', '', '## Ledger', '', 'The record of every payment an organisation received, kept for ten years.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/troubleshooting',
    title: 'Troubleshooting',
    content: [
      '# Troubleshooting',
      '',
      '## Signing in to the dashboard',
      '',
      'Signing in may answer',
      '',
      '```',
      'ERROR: account "alice" does not exist',
      '```',
      '',
      'with your own user name. This happens when nobody has invited you yet: ask an owner of the organisation for an invitation.',
      '',
      '## Saving a budget',
      '',
      'When two people save the same budget at once, one of them is told',
      '',
      '```',
      'ERROR: budget changed while you were editing it',
      '```',
      '',
      'because the budget she opened is no longer the one stored.',
      '',
      'Reload the page and try once more.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/functions',
    title: 'Payment functions',
    content: [
      '# Payment functions',
      '',
      'Table 4.1 lists the functions that work on payments.',
      '',
      '| Function | Description |',
      '| --- | --- |',
      '| `payment_total(month)` | Adds up every payment of a month, refunds subtracted. |',
      '| `payment_open(month)` | Opens the payments of a month for writing. |',
      '| `payment_age(month)` | Days since the payments of a month were settled, counted like `refund_age`. |',
      '| `refund_age(month)` | Days since the last refund of a month. |',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/money',
    title: 'Refunds and orders',
    content: [
      '# Refunds and orders',
      '',
      'The chapters described here deal with refunds of orders. The full list of chapters is:',
      '',
      '- Refunds',
      '  - Asking for a refund',
      '  - Refund times',
      '  - Refunds to a card',
      '  - Refunds to a bank account',
      '- Invoices',
      '  - Invoice copies',
      '  - Invoice numbers',
      '  - Invoice languages',
      '- Orders',
      '  - Order numbers',
      '  - Order history',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/tapes',
    title: 'Tapes',
    content: [
      '# Tapes',
      '',
      '## Methods of tape objects',
      '',
      'The examples here assume that a tape called `tape` is mounted.',
      '',
      '`tape.next_record()` reads a single record from the tape; an empty string is returned after the last record.',
      '',
      '```python',
      '>>> tape.next_record()',
      "'2026-01,refund,40'",
      '```',
      '',
      'For reading records from a tape, you can loop over the tape object. This is memory efficient and simple:',
      '',
      '```python',
      '>>> for record in tape:',
      '...     print(record)',
      '```',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/sweeps',
    title: 'Sweeps',
    content: [
      '# Sweeps',
      '',
      '## The nightly sweep',
      '',
      'A sweep closes the payments of a day and files them in the ledger.',
      '',
      'Sweeps run at midnight, in the time zone of the organisation.',
      '',
      'A failed sweep of the payments can be retried by hand:',
      '',
      '```sh',
      'acme sweep --retry',
      '```',
      '',
      '## Dark mode',
      '',
      'New in version 2.1.',
      '',
      'Dark mode shows the dashboard in light text on a dark background. It can be enabled in the profile settings.',
      '',
      '## Budget checks',
      '',
      'Budgets are checked every hour. A budget over its limit is frozen until the next month. For frozen budgets the following rules apply:',
      '',
      '| Rule | Effect |',
      '| --- | --- |',
      '| No new orders | Orders are refused |',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/payouts',
    title: 'Payouts',
    content: [
      '# Payouts',
      '',
      '## Connecting a bank account',
      '',
      'To connect a bank account for payouts, follow the steps below.',
      '',
      '1. Open the dashboard settings',
      '2. Choose Payouts',
      '3. Press Connect account',
      '',
      'Accounts in other currencies are connected to payouts with this command:',
      '',
      '```sh',
      'acme payouts connect --currency USD',
      '```',
      '',
      '## Closing an account',
      '',
      'To close an account, follow the steps below.',
      '',
      '1. Open the dashboard settings',
      '2. Choose Account',
      '3. Press Close account',
      '4. Export your invoices',
      '5. Export your payments',
      '6. Withdraw the balance',
      '7. Confirm with the code we send',
      '8. Wait for the confirmation mail',
      '9. Sign out of the dashboard',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/ledger-guide',
    title: 'Ledger guide',
    content: [
      '# Ledger guide',
      '',
      '## Exporting payments',
      '',
      'Exports are written once a night.',
      '',
      '### Options',
      '',
      'Set the delimiter with `--delimiter`; a semicolon suits spreadsheets in Europe.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/ledger-imports',
    title: 'Imports',
    content: ['# Imports', '', '## Options', '', 'Set the delimiter of a payment import with `--separator`; a semicolon or a comma is read.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/exports',
    title: 'Exports',
    content: [
      '# Exports',
      '',
      'Payments leave the ledger through one of two exports.',
      '',
      '|  | `export_sheet` | `export_statement` |',
      '| --- | --- | --- |',
      '| Output | One row per payment, for spreadsheets | A printable statement with one page per month |',
      '| Runs | Every night | On request |',
      '| Archive | Kept for a year |',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/blend',
    title: 'blend — Combining rolls',
    content: [
      '# blend — Combining rolls',
      '',
      'The blend module combines rolls. A blend keeps every row of the rolls it combines.',
      '',
      '## Blend options',
      '',
      'A blend can be sorted by month. A blend is written once.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/builtins',
    title: 'Built-in functions',
    content: [
      '# Built-in functions',
      '',
      '## total(*amounts)',
      '',
      'Sums amounts of any currency.',
      '',
      '## blend(*rolls, strict=False)',
      '',
      'Walks several rolls side by side, producing rows with an entry from each one.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/server-settings',
    title: 'Server settings',
    content: [
      '# Server settings',
      '',
      '## max_sessions (integer)',
      '',
      'Determines the maximum number of concurrent sessions of the dashboard. The default is 100.',
      '',
      '## sort_memory (integer)',
      '',
      'Sets the base maximum amount of memory a query operation such as a sort uses before writing to temporary disk files.',
      '',
      '## upkeep_mem (integer)',
      '',
      'Specifies the maximum amount of memory used by upkeep operations, such as building the index of a journal.',
      '',
      '## Host limits',
      '',
      'To raise the number of open files the host allows, increase its limits: a host with many concurrent sessions may reach its maximum of open files.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/journal',
    title: 'Journal',
    content: [
      '# Journal',
      '',
      'This chapter explains how the payment journal keeps every payment safe.',
      '',
      '## Introduction',
      '',
      'The payment journal is a file where every payment is written before the ledger changes, so a crash loses nothing.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/locking',
    title: 'Locking',
    content: [
      '# Locking',
      '',
      '## Holding orders',
      '',
      'Acme provides a means for holding orders for reasons only your shop knows. These are called reservation locks, because Acme never enforces them.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/merging',
    title: 'Merging reports',
    content: [
      '# Merging reports',
      '',
      'The merge command combines the reports of two months into one.',
      '',
      'Rows found in both months appear once in the merged report.',
      '',
      'With merge all, every row is kept, duplicates included.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/closing',
    title: 'Closing a month',
    content: [
      '# Closing a month',
      '',
      'A month is closed once its payments are settled. Closing it may answer',
      '',
      '```',
      'ERROR: cannot close ledger april because other payments depend on it',
      '```',
      '',
      'Settle the payments first, or close the month with `--cascade`, which settles them for you.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/safe-mode',
    title: 'Safe mode',
    content: [
      '# Safe mode',
      '',
      'Safe mode adds checks that are too slow for busy shops.',
      '',
      'The checks cover the ledger, the journal and the payments. Each check logs what it finds.',
      '',
      'It can be enabled with the `--checks` flag of the server.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/vouchers',
    title: 'Vouchers',
    content: [
      '# Vouchers',
      '',
      '## Defining vouchers',
      '',
      'Vouchers are defined like this:',
      '',
      '```python',
      'voucher = acme.Voucher(amount=10)',
      '```',
      '',
      'Every voucher expires after a year, whatever its amount.',
      '',
      '## Gift cards',
      '',
      'For more information on gift cards, see the billing page.',
      '',
      'A gift card pays for any order until its balance is spent.',
      '',
      '## Loyalty points',
      '',
      'See also the table of loyalty points in Section 4.2.',
      '',
      'Loyalty points are earned with every paid order, one point per euro.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/books',
    title: 'Books',
    content: [
      '# Books',
      '',
      '## Nested tallies',
      '',
      'A tally can hold other tallies. A nested tally is a tally inside a tally: each tally of it is closed with the tally that holds it, and a tally nested twice is closed with both.',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/accounts',
    title: 'Accounts',
    content: ['# Accounts', '', '## Tallies', '', 'Tallies count the visits of an account, in the order they were made.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/shelves',
    title: 'Shelves',
    content: ['# Shelves', '', '## Adding a shelf', '', 'Open the storefront editor and choose New shelf.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/staff',
    title: 'Staff',
    content: ['# Staff', '', '## Staff notes', '', 'Staff add notes to the shelves of a storefront.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/badges',
    title: 'Loyalty',
    content: ['# Loyalty', '', '## Badge stacks', '', 'Badge stacks group the badges of one customer.', '', 'Stacks grow with every order. These stacks are capped at five badges per order.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/trial',
    title: 'Trials',
    content: [
      '# Trials',
      '',
      '## Trial period',
      '',
      'The trial period is the time a new storefront may sell without paying.',
      '',
      'It starts on the day the storefront opens.',
      '',
      '```toml',
      'trial_days = 30',
      '```',
      '',
      'Each storefront can set its own period with `trial_days`, in days.',
      '',
      '## Coupons',
      '',
      'Coupons are listed under the storefront, e.g.:',
      '',
      '```text',
      'SPRING24  10%',
      '```',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/payout-times',
    title: 'Payout times',
    content: ['# Payout times', '', '## Converting between time zones', '', 'To show a payout time in another time zone, call `payout.in_zone(name)` with the name of the zone.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/offices',
    title: 'Offices',
    content: ['# Offices', '', 'Our Berlin office serves the storefronts of Europe, and its payout desk answers in German.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/export-streaming',
    title: 'Streaming exports',
    content: ['# Streaming exports', '', 'While an export streams, its rows may spill to disk to keep memory use under control, and a sort of them waits for the last row.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/receipts',
    title: 'Receipts',
    content: [
      '# Receipts',
      '',
      'A receipt is the proof of payment Acme emails to a customer after an order.',
      '',
      '## Correcting a receipt',
      '',
      'To clear the lines of a receipt, open it in the dashboard and press Clear; the customer gets the corrected receipt.',
    ].join('\n'),
  },
  {
    // A C API's reference: each section is headed by a C function's declaration.
    url: 'https://acme.test/docs/c-api/receipt',
    title: 'Receipt Objects',
    content: [
      '# Receipt Objects',
      '',
      'Receipt objects are what the Acme runtime uses to implement receipts. They are normally created by calling `Receipt_New()`, not by hand.',
      '',
      '## int Receipt_Check(AcmeObject *object)',
      '',
      'Return true if object is a receipt object.',
      '',
      '## AcmeObject *Receipt_New(const char *order)',
      '',
      'Create a receipt for the order. Return a new reference.',
      '',
      '## void Receipt_Clear(AcmeObject *receipt)',
      '',
      'Clear the lines of the receipt.',
    ].join('\n'),
  },
  {
    // Two entries of a glossary-like page, and pages that name both in one sentence: where "escrow vs deposit" is answered.
    url: 'https://acme.test/docs/holds',
    title: 'Holds',
    content: [
      '# Holds',
      '',
      'Money a storefront holds for a customer before the order is final.',
      '',
      '## Escrow',
      '',
      'An escrow keeps a payment until both sides confirm the delivery.',
      '',
      '## Deposit',
      '',
      'A deposit is paid up front and kept when the booking is cancelled late.',
      '',
      '## Hold period',
      '',
      'The `hold_days` setting is how long an escrow or a deposit is held: 14 days unless set.',
    ].join('\n'),
  },
  onePassagePage('checkout-settings', 'Checkout settings', 'Payment holds', 'Turn escrow and deposit on or off for each storefront: the difference between an escrow and a deposit shows at checkout, and a deposit and an escrow never apply to one order.'),
  onePassagePage('refund-rules', 'Refund rules', 'Held payments', 'On a refund, an escrow is released to the buyer at once, while a deposit is returned only when the booking was cancelled early.'),
  commandPage('SETTLE', 'close the payments of a day', "`SETTLE` closes the day's payments and sends them to the bank. A settled day can no longer take refunds."),
  commandPage('REOPEN', 'undo a settlement', '`REOPEN` undoes the last settlement of a day, as long as the bank has not paid it out.'),
  // A numbered chapter's section on a concept ("31.1. Publication"), and a command's reference page that names it.
  { url: 'https://acme.test/docs/remittances', title: '31.1.2. Remittance', content: ['# 31.1.2. Remittance', '', 'A remittance is a set of payments sent together to one supplier, with one statement for all of them. Each payment keeps its own reference, and the bank of the supplier receives them in one transfer on the day the batch closes; payments added after that day wait for the next batch, and a supplier with no payments that day receives nothing. The statement lists every payment with its order number, its amount and its currency, so the supplier can match each one to an invoice without asking.'].join('\n') },
  // A chapter on where remittances are used, as "31. Logical Replication" is on where publications are.
  { url: 'https://acme.test/docs/batch-payouts', title: '30. Batch Payouts', content: ['# 30. Batch Payouts', '', 'Batch payouts are a way of paying many suppliers at once, based upon remittances. A ledger with batch payouts turned on sends each remittance on the day its batch closes.'].join('\n') },
  // The reference page of a view, titled by its name as the manual's information schema is.
  { url: 'https://acme.test/docs/views/remittances', title: '37.23. remittances', content: ['# 37.23. remittances', '', 'The view `remittances` contains all remittances defined in the current ledger. Only those remittances are shown that the current user owns.'].join('\n') },
  { url: 'https://acme.test/docs/remittance-changes', title: '31.2. Changing Remittances', content: ['# 31.2. Changing Remittances', '', 'When a remittance was set up for the wrong supplier, you can drop it and create it again, or alter the remittance in place, which keeps its payments.'].join('\n') },
  commandReference('CREATE REMITTANCE', 'define a new remittance', '`CREATE REMITTANCE` adds a new remittance to the current ledger. A remittance can only be changed by its owner.'),
  commandReference('ALTER REMITTANCE', 'change the definition of a remittance', '`ALTER REMITTANCE` changes the supplier or the day of an existing remittance. A remittance can only be changed by its owner.'),
  commandReference('DROP REMITTANCE', 'remove a remittance', '`DROP REMITTANCE` removes an existing remittance. A remittance can only be changed by its owner.'),
  commandReference('SEND REMITTANCE', 'send a remittance now', '`SEND REMITTANCE` sends an existing remittance before its day. A remittance can only be changed by its owner.'),
  // Commands on a thing no chapter explains: what it is, is told where it is created.
  commandReference('CREATE STANDING ORDER', 'define a new standing order', '`CREATE STANDING ORDER` creates a new standing order. A standing order is a payment the ledger repeats on a schedule until it is dropped.'),
  commandReference('ALTER STANDING ORDER', 'change the definition of a standing order', '`ALTER STANDING ORDER` changes the schedule of an existing standing order.'),
  commandReference('DROP STANDING ORDER', 'remove a standing order', '`DROP STANDING ORDER` removes a standing order.'),
  {
    // A parameter in capitals that is SQL, not an environment variable.
    url: 'https://acme.test/docs/commands/create-journal',
    title: 'CREATE JOURNAL',
    content: ['# CREATE JOURNAL', '', '## Parameters', '', '### UNSYNCED', '', 'If specified, the journal is never synced to disk, which makes building its index on big journals considerably faster.'].join('\n'),
  },
  {
    url: 'https://acme.test/docs/tutorial/spools',
    title: 'Spools',
    content: [
      '# Spools',
      '',
      '## Reading and writing spools',
      '',
      '`open_spool()` returns a spool, and is most commonly used with two arguments: the name and the mode. The mode is `r` to read, `w` to write and `a` to append.',
      '',
      'Entries are written in the order they arrive. A spool opened to append keeps what it held; one opened to write starts empty.',
      '',
      'It is good practice to use the `with` keyword when dealing with spools. The advantage is that the spool is properly closed after its suite finishes, even if an exception is raised at some point.',
      '',
      'If you are not using the `with` keyword, then you should call `spool.close()` to close the spool and free up what it holds.',
      '',
      'After a spool is closed, either by a `with` statement or by calling `spool.close()`, attempts to use it will automatically fail.',
      '',
      '```pycon',
      '>>> spool.close()',
      ">>> spool.write(b'entry')",
      'Traceback (most recent call last):',
      '  File "<stdin>", line 1, in <module>',
      'SpoolError: write to a closed spool file.',
      '```',
    ].join('\n'),
  },
  {
    url: 'https://acme.test/docs/api/spool',
    title: 'Spool API',
    content: ['# Spool API', '', '## Spool.close()', '', 'Flush and close this spool file. Once the spool file is closed, any write to the spool file will raise a `SpoolError`.'].join('\n'),
  },
];

/** A command's reference page with the sections the PostgreSQL manual gives one: "DROP REMITTANCE — remove a remittance", its description, parameters, an example. */
function commandReference(name: string, purpose: string, description: string) {
  return {
    url: `https://acme.test/docs/commands/${name.toLowerCase().replace(/ /g, '-')}`,
    title: name,
    content: [`# ${name}`, '', `${name} — ${purpose}`, '', '## Description', '', description, '', '## Parameters', '', '`name`: the name of the object.', '', '## Examples', '', '```', `${name} weekly;`, '```', '', '## Compatibility', '', `\`${name}\` is an Acme extension.`].join('\n'),
  };
}

/** A page of one section under its title. */
function onePassagePage(slug: string, title: string, heading: string, text: string) {
  return { url: `https://acme.test/docs/${slug}`, title, content: [`# ${title}`, '', `## ${heading}`, '', text].join('\n') };
}

/** A command's reference page, as man pages and the PostgreSQL manual write them: a line naming it and what for, then its description. */
function commandPage(name: string, purpose: string, description: string) {
  return { url: `https://acme.test/docs/commands/${name.toLowerCase()}`, title: name, content: [`# ${name}`, '', `${name} — ${purpose}`, '', '## Description', '', description].join('\n') };
}

function qualityFixture() {
  const fixture = answerFixture(10_000);
  const acme = fixture.organisations[0]!;
  (acme.sources[0]!.pages as { url: string; title: string; content: string }[]).push(...QUALITY_PAGES);
  // A widget whose site is German, for visitors whose browser names no language it serves.
  (acme.widgets as unknown[]).push({
    id: 'hilfe', type: 'chatbot', name: 'Hilfe', sources: ['docs'],
    websites: ['acme.test'], secret: 'ws_test_hilfe', signingSecret: 'sig_test_hilfe',
    config: { default_language: 'de' },
  });
  return fixture;
}

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: qualityFixture() });
});
after(() => server.stop());

const ask = (message: string, headers?: Record<string, string>, widget = 'help') =>
  server.request('POST', `/api/v1/acme/widgets/${widget}/chat`, { token: widget === 'help' ? 'ws_test_help' : 'ws_test_hilfe', body: { message }, headers });

/** Asserts `message` is answered by the glossary's ledger entry: "What is a ledger?" however it is put. */
async function assertAnsweredAsLedger(message: string) {
  const { json } = await ask(message);
  assert.equal(json.sources[0]?.url, 'https://acme.test/docs/concepts#ledger', `${message}\n${json.text}`);
  assert.match(json.text, /^The record of every payment an organisation received/, message);
}

/** A passage given to the engine directly, without retrieval. */
interface GivenPassage {
  url: string;
  title: string;
  section?: string;
  markdown: string;
}

/** The embedded engine's English answer to a question from passages given in this order, without retrieval. */
function composeFrom(question: string, passages: GivenPassage[]) {
  const sections = passages.map((passage, index) => ({ ...passage, citation: index + 1, pageId: `p${index + 1}`, text: passage.markdown }));
  return composeAnswer({ question, language: 'en', history: [], sections });
}

/** A troubleshooting passage: the error as the page shows it, the paragraphs that explain it, then the fix's code. */
function relayTroubleshooting(...explanation: string[]): GivenPassage {
  const markdown = ['Restarting the relay too quickly can fail with:', '', '```text', 'RelayError: [E42] port already bound', '```', '', ...explanation, '', '```sh', 'assist relay --reuse-port', '```'].join('\n');
  return { url: 'https://acme.test/docs/relay#troubleshooting', title: 'Relay', section: 'Troubleshooting', markdown };
}

/** Asserts the embedded engine's answer from `passages` is `text`, citing `quoted`, in that order. */
function assertAnswer(question: string, passages: GivenPassage[], text: string, quoted: GivenPassage[]) {
  const answer = composeFrom(question, passages);
  assert.equal(answer.text, text);
  assert.deepEqual(answer.cited.map((section) => section.url), quoted.map((passage) => passage.url));
}

/** The numbers an answer cites, in order of first use. */
function citations(text: string): number[] {
  return [...new Set([...text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1])))];
}

describe('grounding and the embedded answer', () => {
  test('a question is answered from the passage that answers it, and only that passage is cited, by its section', async () => {
    const { json } = await ask('How do I ask for a refund?');
    // The sentence that answers, and the one after it in its paragraph, which finishes the point.
    assert.match(json.text, /^To ask for a refund, write to the billing desk at billing@acme\.test with your order number\. Refunds reach your card within ten days \[1\]\./);
    assert.deepEqual(json.sources, [{ url: 'https://acme.test/docs/billing#refunds', title: 'Billing', section: 'Refunds', pageId: json.sources[0].pageId }]);
    assert.doesNotMatch(json.text, /©|Copyright|--refund-days|Invoices/, 'nothing from what does not answer');
  });

  test('the code example comes verbatim, in a fenced block with its language, after the sentence that answers', async () => {
    const { json } = await ask('How do I sign the visitor id in Python?');
    assert.ok(json.text.includes(`\n\n${PYTHON_SNIPPET}`), `the snippet byte for byte in:\n${json.text}`);
    assert.match(json.text, /^To sign the visitor id in Python, compute an HMAC-SHA256 of the id with the signing secret \[1\]:/);
    assert.doesNotMatch(json.text, /createHmac/, 'not the Node snippet');
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/identity#python']);
  });

  test('inline code keeps its backticks', async () => {
    const { json } = await ask('How do I write a class that works with the with statement?');
    assert.match(json.text, /defines `__enter__` and `__exit__`/);
    assert.ok(json.text.includes('```python\nclass Timer:\n    def __enter__(self):'));
    assert.equal(json.sources[0].url, 'https://acme.test/docs/context-managers#writing-a-context-manager-class');
  });

  test('an API entry is quoted with its signature, which its sentence does not say, so the answer shows how it is called', async () => {
    const { json } = await ask('How do I export the invoices to a CSV file?');
    assert.match(json.text, /^`acme\.export_invoices\(month, \*, path=None\)`: Writes the invoices of a month to a CSV file and returns its path \[1\]\./);
    assert.equal(json.sources.length, 1);
    assert.match(json.sources[0].url, /^https:\/\/acme\.test\/docs\/python-api#\S+$/, 'the entry, by its fragment');
  });

  test('question words are not content: "is there a way to" finds the same passage as the plain question', async () => {
    const plain = await ask('refund');
    const asked = await ask('Is there a way to get a refund?');
    assert.equal(asked.json.sources[0].url, 'https://acme.test/docs/billing#refunds');
    assert.deepEqual(asked.json.sources, plain.json.sources);
  });

  test('a question of two parts is answered from two passages, cited [1] and [2] in the order of the sources', async () => {
    const { json } = await ask('How do I ask for a refund, and how do I sign the visitor id in Python?');
    assert.deepEqual(citations(json.text), [1, 2]);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/billing#refunds', 'https://acme.test/docs/identity#python']);
    assert.ok(json.text.includes(PYTHON_SNIPPET));
  });

  test('"X vs Y" is answered by what each one is, from its own entry, in the order asked, not by a sentence that names both', async () => {
    const escrow = 'An escrow keeps a payment until both sides confirm the delivery';
    const deposit = 'A deposit is paid up front and kept when the booking is cancelled late';
    const holds = (entry: string) => `https://acme.test/docs/holds#${entry}`;
    const asked = (await ask("What's the difference between an escrow and a deposit?")).json;
    assert.equal(asked.text, `${escrow} [1].\n\n${deposit} [2].`);
    assert.deepEqual(asked.sources.map((source: { url: string }) => source.url), [holds('escrow'), holds('deposit')]);
    const reversed = (await ask('deposit vs escrow')).json;
    assert.equal(reversed.text, `${deposit} [1].\n\n${escrow} [2].`);
    assert.deepEqual(reversed.sources.map((source: { url: string }) => source.url), [holds('deposit'), holds('escrow')]);
  });

  test('a further part of a comparison that the entries\' openings leave out is answered by the sentence that says it, cited as the next source', async () => {
    const { json } = await ask("What's the difference between an escrow and a deposit, and do I need hold_days?");
    assert.equal(
      json.text,
      'An escrow keeps a payment until both sides confirm the delivery [1].\n\nA deposit is paid up front and kept when the booking is cancelled late [2].\n\nThe `hold_days` setting is how long an escrow or a deposit is held: 14 days unless set [3].',
    );
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url.split('#')[1]), ['escrow', 'deposit', 'hold-period']);
  });

  test('compared commands are told by their descriptions, which say what the opening line only names', async () => {
    const { json } = await ask("What's the difference between SETTLE and REOPEN?");
    assert.equal(json.text, "`SETTLE` closes the day's payments and sends them to the bank. A settled day can no longer take refunds [1].\n\n`REOPEN` undoes the last settlement of a day, as long as the bank has not paid it out [2].");
    assert.deepEqual(json.sources.map((source: { url: string; section?: string }) => `${source.url.split('#')[0]} ${source.section}`), ['https://acme.test/docs/commands/settle Description', 'https://acme.test/docs/commands/reopen Description']);
  });

  test('things compared in a setting their entries do not name ("… on a refund") are answered where that setting is', async () => {
    const { json } = await ask('escrow vs deposit on a refund?');
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/refund-rules#held-payments'], json.text);
  });

  test('release notes, which tell what changed, give way to the page that says how; a question about the release finds them', async () => {
    const how = await ask('How do I rotate the signing key?');
    assert.deepEqual(how.json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/keys#rotating-the-signing-key']);
    assert.match(how.json.text, /^To rotate the signing key, open the widget settings and press New key/);
    const changed = await ask('What changed about rotating the signing key in release 2.3?');
    assert.match(changed.json.sources[0].url, /release-notes\/2\.3/);
  });

  test('"How do I …?" is shown by the example a quoted sentence leads to, not by an earlier one', async () => {
    const { json } = await ask('How do I read a tape record by record?');
    assert.equal(json.sources[0].url, 'https://acme.test/docs/tapes#methods-of-tape-objects');
    assert.ok(json.text.includes('For reading records from a tape, you can loop over the tape object. This is memory efficient and simple [1]:'), json.text);
    assert.ok(json.text.includes('```python\n>>> for record in tape:\n...     print(record)\n```'), json.text);
    assert.ok(!json.text.includes('>>> tape.next_record()'), json.text);
  });

  test('a request put as one ("show me how to …", "I\'m trying to …, how?", "what\'s the best way to …") is answered as "How do I …?"', async () => {
    const asked = (await ask('How do I read a tape record by record?')).json;
    for (const message of [
      'show me how to read a tape record by record',
      "I'm trying to read a tape record by record, how?",
      'I want to read a tape record by record.',
      "What's the best way to read a tape record by record?",
      'whats the best way to read a tape record by record',
    ]) {
      const { json } = await ask(message);
      assert.equal(json.text, asked.text, message);
      assert.deepEqual(json.sources, asked.sources, message);
    }
  });

  test('a pasted error is explained by the paragraph after the end of the sentence its example interrupts', async () => {
    const { json } = await ask('ERROR: budget changed while you were editing it');
    assert.match(json.text, /^Reload the page and try once more \[1\]\./);
  });

  test('a pasted error followed by what the visitor writes about it on other lines is explained as the error alone', async () => {
    const alone = (await ask('ERROR: budget changed while you were editing it')).json;
    const { json } = await ask('ERROR: budget changed while you were editing it\n\nIt shows up every single morning for our finance staff.');
    assert.equal(json.text, alone.text);
    assert.deepEqual(json.sources, alone.sources);
  });

  test('a further sentence that announces an example is quoted with it', async () => {
    const { json } = await ask('What does a sweep do with the payments of a day?');
    assert.ok(json.text.startsWith('A sweep closes the payments of a day and files them in the ledger. A failed sweep of the payments can be retried by hand [1]:\n\n```sh\nacme sweep --retry\n```'), json.text);
  });

  test('a version note ("New in version 2.1.") is not what a passage says, unless versions are asked about', async () => {
    const { json } = await ask('How do I turn on dark mode?');
    assert.match(json.text, /^Dark mode shows the dashboard in light text on a dark background\. It can be enabled in the profile settings \[1\]\./);
    const asked = await ask('In which version was dark mode added?');
    assert.match(asked.json.text, /New in version 2\.1/);
  });

  test('an answer does not end by announcing what it does not show ("the following rules apply:")', async () => {
    const { json } = await ask('How often are budgets checked?');
    assert.match(json.text, /^Budgets are checked every hour\. A budget over its limit is frozen until the next month \[1\]\.$/);
  });

  test('numbered steps of a few words each are a procedure, not a table of contents', async () => {
    const { json } = await ask('How do I close an account?');
    assert.equal(json.sources[0].url, 'https://acme.test/docs/payouts#closing-an-account');
    assert.ok(json.text.includes('1. Open the dashboard settings\n2. Choose Account\n3. Press Close account'), json.text);
  });

  test('a procedure\'s steps are not swapped for the example of a later sentence', async () => {
    const { json } = await ask('How do I connect a bank account for payouts?');
    assert.ok(json.text.startsWith('To connect a bank account for payouts, follow the steps below [1].\n\n1. Open the dashboard settings\n2. Choose Payouts'), json.text);
  });

  test('a table of contents is not an answer: the page it points to is', async () => {
    const { json } = await ask('Where is the archive folder exported?');
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/archive#exporting-the-archive']);
  });

  test('an example a question ends with ("like Europe/Berlin") says which one, not what is asked: the page that says how answers', async () => {
    for (const question of ['How do I show a payout time in a different time zone like Europe/Berlin?', 'how do i show a payout time in another time zone, e.g. Europe/Berlin']) {
      const { json } = await ask(question);
      assert.match(json.text, /^To show a payout time in another time zone, call `payout\.in_zone\(name\)`/, question);
      assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/payout-times#converting-between-time-zones'], question);
    }
  });

  test('the visitor\'s word is found under the page\'s: "folder" finds "directory"', async () => {
    const { json } = await ask('Which folder does the nightly archive go to?');
    assert.match(json.text, /^Every night the archive is written to the export directory you choose in the settings/);
  });

  test('the visitor\'s verb is found under the page\'s: "change" finds "alter", "run" finds "execute"', async () => {
    const changed = await ask("How do I change a kiln's firing schedule?");
    assert.match(changed.json.text, /^To alter the firing schedule of a kiln, call `kiln\.reschedule\(at\)`/);
    assert.deepEqual(changed.json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/kilns#altering-a-firing-schedule']);
    const run = await ask('How can I run a glaze test?');
    assert.match(run.json.text, /^A glaze test is executed with `kiln\.test_glaze\(name\)`/);
  });

  test('"what is …?" is answered by the first sentence under the heading that names it, though it does not repeat the name', async () => {
    const { json } = await ask('What is a widget secret?');
    assert.match(json.text, /^The token a page sends to prove it may use a widget\. It is shown once, when the widget is created/);
    assert.equal(json.sources[0].url, 'https://acme.test/docs/glossary#widget-secret');
  });

  test('a greeting before the question and a plea after it change nothing: "hi, what is a ledger? pls help" is answered as the question', async () => {
    for (const message of ['hi, what is a ledger? pls help', 'Hello there! What is a ledger? Thanks in advance!']) await assertAnsweredAsLedger(message);
  });

  test('what the visitor tells before the question ("I\'m new here.", "so at work we …") and a plea that asks nothing after it ("any ideas?") change nothing: the question is read as asked', async () => {
    for (const message of [
      "I'm new to Acme and my team keeps talking about it. What is a ledger?",
      'so at work we just moved our billing over, what is a ledger? any ideas?',
      "I've been trying to figure out what a ledger is. Any ideas?",
    ])
      await assertAnsweredAsLedger(message);
  });

  test('"… in the docs?", naming the source the widget answers from, is answered as the question: those words are not asked of the answer', async () => {
    await assertAnsweredAsLedger('What is a ledger in the docs?');
  });

  test('what a question only tells after it ("I tried the docs but got lost.") need not be in the answer', async () => {
    await assertAnsweredAsLedger('What is a ledger?\n\nI tried the docs already but got completely lost.');
  });

  test('"what is …?" of an abbreviation is answered by the passage that spells it out, not one that only uses it', async () => {
    const { json } = await ask('What is the DSQ?');
    assert.match(json.text, /^Delayed Settlement Queue \(DSQ\) is where Acme holds a payment until the bank confirms it\./);
    assert.equal(json.sources[0].url, 'https://acme.test/docs/settlement#delayed-settlement-queue-dsq');
  });

  test('a glossary entry that only says "See …" gives way to the entry it points to', async () => {
    const { json } = await ask('What is the GRV?');
    assert.match(json.text, /^The sum of the refunds a storefront paid in a month, before fees are taken off \[1\]\./);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/glossary#gross-refund-value']);
  });

  test('a list item that announces a list is followed by its own nested items, not by the list it is part of', async () => {
    const { json } = await ask('Which payments of the storefront and its staff are settled on bank holidays?');
    assert.ok(json.text.includes('so the storefront can go on selling [1]:\n\n- refunds to a card\n- payouts to a bank account'), json.text);
    assert.doesNotMatch(json.text, /^- Payments|held for review/m, json.text);
  });

  test('a page whose title names something the visitor did not ask about ranks below the page titled by what was asked', async () => {
    const { json } = await ask('How do I create a transfer?');
    assert.match(json.text, /^To create a transfer, open the balance and press Transfer/);
    assert.equal(json.sources[0].url, 'https://acme.test/docs/transfers');
  });

  test('a reference page\'s opening line, a name and what it does, answers though it ends no sentence', () => {
    const markdown = 'RENEW KEY — replace a signing key';
    const { text, cited } = composeFrom('How do I replace a signing key?', [{ url: 'https://acme.test/docs/renew-key', title: 'RENEW KEY', markdown }]);
    assert.equal(text, 'RENEW KEY — replace a signing key [1]');
    assert.equal(cited.length, 1);
  });

  test('"How do I …?" is shown the example of the passage that does what it asks to do, before one sharing as many of its words', () => {
    const dumps = {
      url: 'https://acme.test/docs/dumps',
      title: 'Dumps',
      markdown: [
        'A dump holds every payment of a march ledger in one file.',
        '',
        'Dumps are compressed.',
        '',
        'They can be copied anywhere.',
        '',
        '```sh',
        'ledger_dump march > march.dump',
        '```',
        '',
        'Later on:',
        '',
        '```sh',
        'ledger_restore feb.dump',
        '```',
      ].join('\n'),
    };
    const { text } = composeFrom('How do I restore a march ledger dump made with ledger_dump?', [dumps]);
    assert.equal(text, 'A dump holds every payment of a march ledger in one file [1].\n\n```sh\nledger_restore feb.dump\n```');
  });

  test('"How do I …?" is answered by the sentence that shows how, not by a reference page\'s line saying what a command does', () => {
    const purpose = 'RENEW KEY — replace a signing key';
    const how = ['To replace a signing key, run the renew command on the server:', '', '```sh', 'acme renew-key', '```'].join('\n');
    const { text, cited } = composeFrom('How do I replace a signing key?', [
      { url: 'https://acme.test/docs/renew-key', title: 'RENEW KEY', markdown: purpose },
      { url: 'https://acme.test/docs/keys#replacing-a-key', title: 'Keys', section: 'Replacing a key', markdown: how },
    ]);
    assert.equal(text, 'To replace a signing key, run the renew command on the server [1]:\n\n```sh\nacme renew-key\n```');
    assert.deepEqual(cited.map((section) => section.url), ['https://acme.test/docs/keys#replacing-a-key']);
  });

  test('"How do I …?" is answered by the sentence that tells how ("To show …, you would put …"), not by one that uses as many of its words in passing', () => {
    const history = {
      url: 'https://acme.test/docs/relay-history#origins',
      title: 'Relay history',
      section: 'Origins',
      markdown: 'When the audit log was added to the relay in 2019, it followed the only format in use at the time.',
    };
    const how = {
      url: 'https://acme.test/docs/relay#showing-the-date-and-time',
      title: 'Relay',
      section: 'Showing the date and time in entries',
      markdown: ['To show the date and time of an entry, you would put `{when}` in the entry format:', '', '```sh', 'acme relay --format "{when} {message}"', '```', '', 'Each line of the log then starts with the moment its entry was made.'].join('\n'),
    };
    assertAnswer(
      'how to add the date and time to every log line',
      [history, how],
      'To show the date and time of an entry, you would put `{when}` in the entry format [1]:\n\n```sh\nacme relay --format "{when} {message}"\n```',
      [how],
    );
  });

  test('a sentence that gives the writer\'s purpose ("To illustrate how …, you can …") does not tell the visitor how: "How do I …?" is answered by the one that does', () => {
    const destinations = {
      url: 'https://acme.test/docs/alerts#destinations',
      title: 'Alerts',
      section: 'Alert destinations',
      markdown: 'A `FileSender` sends each alert to the file it is given, one line per alert.',
    };
    const byEmail = {
      url: 'https://acme.test/docs/alerts-cookbook#batching',
      title: 'Alerts cookbook',
      section: 'Batching email alerts',
      markdown: 'To illustrate how you can send alerts to a file and by email at once, you can subclass `BatchingSender`.',
    };
    assertAnswer('How do I send alerts to a file?', [destinations, byEmail], 'A `FileSender` sends each alert to the file it is given, one line per alert [1].', [destinations]);
  });

  test('"the outer keyword" is what the heading "The outer statement" names: a name asked as one kind of thing is answered by its entry as another', () => {
    const layers = {
      url: 'https://acme.test/docs/layers#parents',
      title: 'Layers',
      section: 'Layer stacks › parents',
      markdown: 'A stack of all the layers but the first. Use cases are similar to those for the `outer` keyword used in nested recipes.',
    };
    const statement = {
      url: 'https://acme.test/docs/recipe-language#the-outer-statement',
      title: 'Recipe language',
      section: 'The outer statement',
      markdown: 'The `outer` statement makes the listed names refer to the variables of the nearest enclosing recipe.',
    };
    assertAnswer('what does the outer keyword do', [layers, statement], 'The `outer` statement makes the listed names refer to the variables of the nearest enclosing recipe [1].', [statement]);
  });

  test('"Why …?" is answered by the sentence that says there are reasons, with the list of them, over one that merely says "because"', () => {
    const renaming = {
      url: 'https://acme.test/docs/faq#why-did-renaming-stack-b-also-rename-stack-a',
      title: 'FAQ',
      section: 'Why did renaming stack b also rename stack a?',
      markdown: [
        'If you wrote:',
        '',
        '```sh',
        'acme stack alias a b',
        'acme stack rename b c',
        '```',
        '',
        'you might be wondering why renaming `b` renamed `a` too.',
        '',
        'There are two factors that produce this result:',
        '',
        '1. Stack names are simply labels that point at stacks. An alias does not copy the stack: both labels point at the same stack.',
        '2. Renaming changes the stack itself, not the label you used.',
        '',
        'Had you copied the stack instead, renaming one copy would leave the other alone. This is because a copy is a new stack, and renaming it changes which stack its label names.',
      ].join('\n'),
    };
    const answer = composeFrom('Why did renaming one stack also rename another stack I made from it?', [renaming]);
    assert.match(answer.text, /^There are two factors that produce this result \[1\]:\n\n1\. Stack names are simply labels that point at stacks\. .*\n2\. Renaming changes the stack itself, not the label you used\./, answer.text);
  });

  test('"What is … for?" is answered by the sentence that says what it is used for, and by what it is when its passage says nothing of that', () => {
    const relay = {
      url: 'https://acme.test/docs/typing#acme.Relay',
      title: 'Typing',
      section: 'Building generic types › class acme.Relay(Generic)',
      markdown: [
        'Base class for relay classes. Relay classes are defined like this:',
        '',
        '```python',
        'class Forward(Relay):',
        '    def send(self) -> int:',
        '        ...',
        '```',
        '',
        'Such classes are primarily used with static checkers that recognize structural typing, for example:',
        '',
        '```python',
        'def route(r: Forward) -> int:',
        '    return r.send()',
        '```',
      ].join('\n'),
    };
    for (const question of ['what is acme.Relay for', "what's the point of acme.Relay?", 'why would I use acme.Relay?']) {
      const answer = composeFrom(question, [relay]);
      assert.match(answer.text, /Such classes are primarily used with static checkers that recognize structural typing, for example \[1\]:\n\n```python\ndef route/, `${question}\n${answer.text}`);
    }
    const glossary = {
      url: 'https://acme.test/docs/glossary#term-hook',
      title: 'Glossary',
      section: 'hook',
      markdown: 'A function called when a payment settles, registered with the `@hook` syntax. Common examples of hooks are `notify()` and `archive()`.',
    };
    assertAnswer('What are hooks for?', [glossary], glossary.markdown.replace(/\.$/, ' [1].'), [glossary]);
  });

  test('an entry of a "See also" names other reading: it is not quoted as the answer, though it holds the question\'s words', () => {
    for (const seeAlso of ['See also', '**See also:**']) {
      const testing = {
        url: 'https://acme.test/docs/testing',
        title: 'Testing',
        markdown: [
          'The `acme.testing` module runs checks against a sandbox ledger.',
          '',
          seeAlso,
          '',
          'Stub Libraries Taxonomy',
          ': An extensive list of tools for stubbing out functions in tests.',
          '',
          'Module `acme.fixtures`',
          ': Another module with a very different flavor.',
        ].join('\n'),
      };
      const stubbing = {
        url: 'https://acme.test/docs/testing#stubs',
        title: 'Testing',
        section: 'Stubs',
        markdown: 'Call `acme.stubs.replace(target, value)` to stub out a function for the length of one test.',
      };
      assertAnswer('How do I stub out a function in my tests?', [testing, stubbing], 'Call `acme.stubs.replace(target, value)` to stub out a function for the length of one test [1].', [stubbing]);
    }
  });

  test('to "stop" something "from" happening is to prevent it: the answer is what prevents it, not what stops a running thing', () => {
    const pausing = {
      url: 'https://acme.test/docs/rooms#pausing',
      title: 'Rooms',
      section: 'Pausing a room',
      markdown: 'To stop the bookings of a room for a time, run `acme rooms pause` with the room and the time.',
    };
    const constraint = {
      url: 'https://acme.test/docs/rooms#exclusive-bookings',
      title: 'Rooms',
      section: 'Exclusive bookings',
      markdown: 'An exclusion rule prevents two bookings of the same room from overlapping: `acme rooms exclusive --by room`.',
    };
    assertAnswer(
      'How can I stop two bookings for the same room from overlapping in time?',
      [pausing, constraint],
      'An exclusion rule prevents two bookings of the same room from overlapping: `acme rooms exclusive --by room` [1].',
      [constraint],
    );
  });

  test('to "stop it happening" is to avoid it: a two-part question about an error gets the sentence that says how to avoid it', () => {
    const timeouts = {
      url: 'https://acme.test/docs/exports#lock-timeouts',
      title: 'Exports',
      section: 'Lock timeouts',
      markdown: [
        "A lock timeout is caused by two exports waiting for each other's ledgers: Acme stops one of them with `E_LOCK_TIMEOUT`, so that the other can finish.",
        '',
        'Which of them is stopped cannot be foretold, and a stopped export is not retried.',
        '',
        'The best way to avoid lock timeouts is to have every export lock the ledgers it touches in the same order.',
      ].join('\n'),
    };
    assertAnswer(
      'our nightly export logs this now and then:\nE_LOCK_TIMEOUT: export 4121 waited for ledger 88213\nwhat causes it and how do we stop it happening? help pls',
      [timeouts],
      "A lock timeout is caused by two exports waiting for each other's ledgers: Acme stops one of them with `E_LOCK_TIMEOUT`, so that the other can finish. " +
        'The best way to avoid lock timeouts is to have every export lock the ledgers it touches in the same order [1].',
      [timeouts],
    );
  });

  test('"regardless of upper/lower case" is what the page calls case-insensitive', () => {
    const letters = {
      url: 'https://acme.test/docs/names#letters',
      title: 'Names',
      section: 'Upper and lower case',
      markdown: 'A name may mix upper and lower case letters; `acme names upper` turns a name into upper case.',
    };
    const insensitive = {
      url: 'https://acme.test/docs/names#unique-names',
      title: 'Names',
      section: 'Unique names',
      markdown: 'Declare a name column `ci_text` to keep names unique in a case-insensitive way: "Ada" and "ADA" are then the same name.',
    };
    assertAnswer(
      'I want names to be unique regardless of upper/lower case. how?',
      [letters, insensitive],
      'Declare a name column `ci_text` to keep names unique in a case-insensitive way: "Ada" and "ADA" are then the same name [1].',
      [insensitive],
    );
  });

  test('"line by line" asks to loop over lines, as the page says it', () => {
    const reading = {
      url: 'https://acme.test/docs/exports#reading',
      title: 'Exports',
      section: 'Reading an export',
      markdown: ['`export.read()` returns the whole export file as one string.', '', 'For reading lines from an export file, you can loop over the export object:', '', '```python', 'for line in export:', '    print(line)', '```'].join('\n'),
    };
    const format = {
      url: 'https://acme.test/docs/exports#format',
      title: 'Exports',
      section: 'File format',
      markdown: 'Each line of an export file holds one payment, and a file you read by hand lists the payments by day.',
    };
    const answer = composeFrom('How do I read an export file line by line?', [format, reading]);
    assert.match(answer.text, /For reading lines from an export file, you can loop over the export object \[1\]:\n\n```python\nfor line in export:/, answer.text);
    assert.deepEqual(answer.cited.map((section) => section.url), [reading.url]);
  });

  test('a "checksum" is what the page calls a digest: a question asking for a checksum is answered where the page says "digest"', () => {
    const largeFiles = { url: 'https://acme.test/docs/uploads#large-files', title: 'Uploads', section: 'Large files', markdown: 'A file larger than 2 GiB is uploaded in parts of 64 MiB.' };
    const digests = {
      url: 'https://acme.test/docs/uploads#digests',
      title: 'Uploads',
      section: 'Digests',
      markdown: '`acme.file_digest(f)` returns the SHA-256 digest of a file, computed as the file is read.',
    };
    assertAnswer('How do I get the checksum of a file?', [largeFiles, digests], '`acme.file_digest(f)` returns the SHA-256 digest of a file, computed as the file is read [1].', [digests]);
  });

  test('"id" is what the page calls an identifier: a question asking by id is answered where the page says "identifier"', () => {
    const listing = { url: 'https://acme.test/docs/orders#listing', title: 'Orders', section: 'Listing orders', markdown: 'Orders can be found by the day they were placed, in the list of orders.' };
    const fetching = {
      url: 'https://acme.test/docs/orders#fetching',
      title: 'Orders',
      section: 'Fetching one order',
      markdown: 'Every order has an identifier, printed on its receipt: `acme orders get` fetches the order with the identifier given.',
    };
    assertAnswer(
      'How do I find an order by its id?',
      [listing, fetching],
      'Every order has an identifier, printed on its receipt: `acme orders get` fetches the order with the identifier given [1].',
      [fetching],
    );
  });

  test('how often something happens ("… sometimes?") is not what the question is about: a sentence is not chosen for saying "sometimes"', () => {
    const exporting = {
      url: 'https://acme.test/docs/reports#exporting',
      title: 'Reports',
      section: 'Exporting',
      markdown: 'Sometimes it is useful to keep the rows of a report in a different file for each month.',
    };
    const order = {
      url: 'https://acme.test/docs/reports#sorting',
      title: 'Reports',
      section: 'Sorting',
      markdown: 'Unless a sort is chosen, the rows of a report come back in whatever order the ledger finds them, which can change from one run to the next.',
    };
    assertAnswer(
      'Why does the same report come back in a different row order sometimes?',
      [exporting, order],
      'Unless a sort is chosen, the rows of a report come back in whatever order the ledger finds them, which can change from one run to the next [1].',
      [order],
    );
  });

  test('a glossary term with its kind ("Chargeback (operation)") is not introduced as code, as an API entry is', () => {
    const markdown = 'The act of a bank taking a payment back from a storefront after the card holder disputes it.';
    const { text } = composeFrom('What is a chargeback?', [{ url: 'https://acme.test/docs/glossary#chargeback', title: 'Glossary', section: 'Chargeback (operation)', markdown }]);
    assert.equal(text, 'The act of a bank taking a payment back from a storefront after the card holder disputes it [1].');
  });

  test('a question of two parts that one passage answers gets that passage\'s sentence for each part, the second after the example', () => {
    const markdown = [
      'An export fails when the ledger is locked by a running sweep, as the log shows:',
      '',
      '```text',
      'export: ledger locked',
      '```',
      '',
      'Exports are written as CSV files.',
      '',
      'You can prevent this by scheduling them after the nightly sweep.',
    ].join('\n');
    const { text } = composeFrom('Why did my export fail with the ledger locked, and how do I prevent it?', [
      { url: 'https://acme.test/docs/exports#failed-exports', title: 'Exports', section: 'Failed exports', markdown },
    ]);
    assert.equal(
      text,
      'An export fails when the ledger is locked by a running sweep, as the log shows [1]:\n\n```text\nexport: ledger locked\n```\n\nYou can prevent this by scheduling them after the nightly sweep [1].',
    );
  });

  test('a second passage is quoted only for a part the first leaves out, and only when it answers that part, not a word of it', () => {
    const filters: GivenPassage = {
      url: 'https://acme.test/docs/reports#filters',
      title: 'Reports',
      section: 'Filters',
      markdown: 'The difference between `WHERE` and `HAVING`: `WHERE` filters rows before they are grouped, so its clause cannot hold `count(*)`; `HAVING` filters the groups after.',
    };
    // Holds the one word of the second part that the first passage does not ("put").
    const folders: GivenPassage = { url: 'https://acme.test/docs/folders', title: 'Folders', markdown: 'Put a report in a folder to keep it.' };
    const where = composeFrom('What is the difference between WHERE and HAVING, and can I put count(*) in the WHERE clause?', [filters, folders]);
    assert.deepEqual(where.cited.map((section) => section.url), [filters.url], where.text);
    assert.doesNotMatch(where.text, /folder/);

    const storage: GivenPassage = {
      url: 'https://acme.test/docs/disk-usage',
      title: 'Disk usage',
      markdown: 'Each ledger and index is stored in a separate disk file — possibly more than one file, if the file would exceed one gigabyte. File names are described in the next section.',
    };
    // What the first leaves out of the second part is "grows bigger": one holds "grow", another "bigger", neither the part.
    const growth: GivenPassage = { url: 'https://acme.test/docs/growth', title: 'Growth', markdown: 'Accounts grow by one entry per payment.' };
    const cache: GivenPassage = { url: 'https://acme.test/docs/cache', title: 'Cache settings', markdown: 'Flushing early often helps to reduce latency, but it can slow down workloads bigger than the cache.' };
    const size = composeFrom('is each ledger stored in a single file on disk? what happens when it grows bigger than a gigabyte', [storage, growth, cache]);
    assert.deepEqual(size.cited.map((section) => section.url), [storage.url], size.text);
  });

  test('what the visitor wants to do without ("without restarting the server") need not be on the page that answers', () => {
    const markdown = ['Run the rotate command to replace the signing key:', '', '```sh', 'assist keys rotate --grace 1h', '```'].join('\n');
    const rotating = { url: 'https://acme.test/docs/keys#rotating', title: 'Keys', section: 'Rotating the signing key', markdown };
    const question = 'How do I rotate the signing key without restarting the relay server?';
    assertAnswer(question, [rotating], 'Run the rotate command to replace the signing key [1]:\n\n```sh\nassist keys rotate --grace 1h\n```', [rotating]);
  });

  test('"What is the LRW?" first says what the abbreviation stands for, cited to the passage that spells it out, when what is quoted does not', () => {
    const glossary = { url: 'https://acme.test/docs/glossary#lrw', title: 'Glossary', section: 'LRW', markdown: 'The days after an order ships during which a refund is still granted without review.' };
    const refunds = { url: 'https://acme.test/docs/refunds#late', title: 'Refunds', section: 'Late refunds', markdown: 'This page covers the Late Refund Window (LRW) and how to extend it.\n\nSupport can extend it by a week.' };
    const { text, cited } = composeFrom('What is the LRW?', [glossary, refunds]);
    assert.equal(text, 'LRW: Late Refund Window [1].\n\nThe days after an order ships during which a refund is still granted without review [2].');
    assert.deepEqual(cited.map((section) => [section.citation, section.url]), [[1, refunds.url], [2, glossary.url]]);
    // Said already where the answer is quoted from, it is not said twice.
    const spelled = { ...glossary, markdown: 'The Late Refund Window (LRW) is the days after an order ships during which a refund is still granted.' };
    assert.equal(composeFrom('What is the LRW?', [spelled, refunds]).text, 'The Late Refund Window (LRW) is the days after an order ships during which a refund is still granted [1].');
    // Spelled out by the passage quoted, only elsewhere than in what is quoted, it heads the quote.
    const headed = { ...glossary, section: 'Late Refund Window (LRW)' };
    assert.equal(composeFrom('What is the LRW?', [headed, refunds]).text, 'LRW (Late Refund Window): The days after an order ships during which a refund is still granted without review [1].');
  });

  test('a pasted error with the visitor\'s remark after it ("-- happens every time …") is explained where the page shows it, with the fix the page announces', () => {
    const relay = relayTroubleshooting('This is because the old relay still holds the port for a minute.', '', 'Set the reuse flag to prevent this:');
    for (const question of ['RelayError: [E42] port already bound   -- happens every time I restart the relay', 'RelayError: [E42] port already bound  (every time I restart the relay)']) {
      const { text } = composeFrom(question, [relay]);
      assert.equal(text, 'This is because the old relay still holds the port for a minute. Set the reuse flag to prevent this [1]:\n\n```sh\nassist relay --reuse-port\n```', question);
    }
  });

  test('a pasted error is not taken as shown by a page that says a half of it made of question words only ("there is no")', () => {
    const closing = { url: 'https://acme.test/docs/close', title: 'CLOSE', markdown: 'Issuing `CLOSE` when no ledger is open does nothing: the ledger stays in progress.' };
    const archiving = { url: 'https://acme.test/docs/archiving', title: 'Archiving', markdown: 'An archived ledger is read-only: there is no need to close it first, and no warning is given.' };
    assertAnswer('WARNING:  there is no ledger in progress', [closing, archiving], 'Issuing `CLOSE` when no ledger is open does nothing: the ledger stays in progress [1].', [closing]);
  });

  test('the names a pasted error quotes ("test") are the visitor\'s own: the answer is the passage on the message, not one that says the name', () => {
    // Both pages say the message's words; the name ("test") and the severity ("ERROR") only tell, so neither page wins by them.
    const dropping = { url: 'https://acme.test/docs/drop-ledger', title: 'DROP LEDGER', markdown: 'A ledger cannot be dropped while other sessions access it: trying to drop it fails with an error. End those sessions first, or drop it with `FORCE`.' };
    const testing = { url: 'https://acme.test/docs/test-mode', title: 'Test mode', markdown: 'In test mode, other sessions can access the test payments of a ledger, and a test ledger is dropped after a day.' };
    assertAnswer('ERROR:  ledger "test" is being accessed by other sessions -- when trying to drop it', [testing, dropping], 'A ledger cannot be dropped while other sessions access it: trying to drop it fails with an error. End those sessions first, or drop it with `FORCE` [1].', [dropping]);
  });

  test('the severity a pasted error opens with ("FATAL:") is not what it asks about: the answer is the passage on the message, not one on severities', () => {
    const severities = { url: 'https://acme.test/docs/log-levels', title: 'Log levels', markdown: 'A `FATAL` message ends the session of the ledger client that caused it.' };
    const ledgers = { url: 'https://acme.test/docs/ledgers', title: 'Ledgers', markdown: 'A ledger must exist before a client connects to it: create it first with `acme ledger create`.' };
    assertAnswer('FATAL:  ledger "joe" does not exist', [severities, ledgers], 'A ledger must exist before a client connects to it: create it first with `acme ledger create` [1].', [ledgers]);
  });

  test('a table row quoted in an answer shows a pipe its cell escapes as the pipe it is (`||`)', () => {
    const markdown = '| Operator | Description |\n| --- | --- |\n| `ledger` `\\|\\|` `ledger` | Concatenates two ledgers into one |\n| `ledger` `&` `ledger` | Intersects two ledgers |';
    const { text } = composeFrom('How do I concatenate two ledgers?', [{ url: 'https://acme.test/docs/ledger-operators', title: 'Ledger operators', markdown }]);
    assert.ok(text.includes('`ledger` `||` `ledger`'), text);
    assert.ok(!text.includes('\\|'), text);
  });

  test('the values a pasted error quotes (the bytes `0xe9 0x20`) are the visitor\'s case: the page explaining the message answers it', () => {
    const page = {
      url: 'https://acme.test/docs/ledger-encodings',
      title: 'Ledger encodings',
      markdown: 'Every entry a client sends is checked against the ledger encoding. An invalid byte sequence for the encoding is rejected with an error: convert the file to the ledger encoding before you import it.',
    };
    const { text, cited } = composeFrom('ERROR:  invalid byte sequence for encoding "LEDGER8": 0xe9 0x20 0x43', [page]);
    assert.match(text, /^An invalid byte sequence for the encoding is rejected with an error/, text);
    assert.deepEqual(cited.map((section) => section.url), [page.url]);
    // A code the visitor asks about, not quoted from a pasted error, is what the question is about: another code does not answer it.
    const codes = { url: 'https://acme.test/docs/ledger-codes', title: 'Ledger codes', markdown: 'Error 0x80070643 means that the ledger could not write its log.' };
    assert.match(composeFrom('What does error 0x80070005 mean?', [codes]).text, /^I couldn't find this/);
  });

  test('a note\'s mark after a sentence ("(4)") stays with it: no answer opens with the mark alone', () => {
    const markdown = [
      '| Operation | Result |',
      '| --- | --- |',
      '| `ledger1 - ledger2` | Subtracts one ledger from the other. (4) |',
      '',
      '4. Subtracting a dated ledger from an undated ledger raises `TypeError`: both must be dated, or neither.',
    ].join('\n');
    const { text } = composeFrom('Why does subtracting one ledger from another raise TypeError?', [{ url: 'https://acme.test/docs/ledger-arithmetic', title: 'Ledger arithmetic', markdown }]);
    assert.doesNotMatch(text, /^\(4\)/, text);
  });

  test('paragraphs of a quote stay apart: a definition indented under its term is quoted alone', () => {
    const kinds = { url: 'https://acme.test/docs/ledger-kinds', title: 'Ledger kinds', markdown: '> `Ledger`\n>\n> > Base class for books that keep payments.\n>\n> `Journal`\n>\n> > Base class for books that keep payments in the order they happen.' };
    const journal = composeFrom('Which base class keeps payments in the order they happen?', [kinds]);
    assert.match(journal.text, /^Base class for books that keep payments in the order they happen \[1\]\.$/, journal.text);
  });

  test('a sentence opening with "But" or "Instead", or an aside in parentheses, is quoted after the sentence it leans on', () => {
    const page = {
      url: 'https://acme.test/docs/ledger-keys',
      title: 'Ledger keys',
      markdown: 'A key is best given when the ledger is created. But a key can still be added to a ledger that is already filled with entries, with `acme keys add`. Every entry is checked as the key is added.',
    };
    const { text } = composeFrom('Can a key be added to a ledger already filled with entries?', [page]);
    assert.match(text, /^A key is best given when the ledger is created\. But a key can still be added to a ledger that is already filled with entries/, text);
    const wraparound = {
      url: 'https://acme.test/docs/ledger-wraparound',
      title: 'Ledger wraparound',
      markdown: 'Ledgers keep their entries for years.\n\nA ledger whose counter wraps around seems to lose its old entries. (Actually the entries are still there, but the ledger cannot show them until it is sealed.) Seal every ledger once a month.',
    };
    // "Instead of …" says what to do by itself.
    const opening = { url: 'https://acme.test/docs/ledger-reading', title: 'Reading ledgers', markdown: 'Ledgers are files. Instead of opening the ledger file yourself, call `acme.read()` to get its entries.' };
    assert.match(composeFrom('How do I read the entries of a ledger file?', [opening]).text, /^Instead of opening the ledger file yourself/);
    const aside = composeFrom('Are the entries actually still there, and when can the ledger show them?', [wraparound]);
    assert.match(aside.text, /A ledger whose counter wraps around seems to lose its old entries\. \(Actually the entries are still there/, aside.text);
  });

  test('a table row quoted in an answer is shown the code after the table only when that code names it', () => {
    const markdown = [
      'The functions of the queue tell how it is doing.',
      '',
      '| Function | Description |',
      '| --- | --- |',
      '| `queue_usage` () → `double precision` | Returns the fraction of the queue\'s maximum size that is taken by waiting messages. |',
      '| `has_queue_privilege` ( `queue` `text` ) → `boolean` | Does the current user have the privilege on the queue? |',
      '| `privilege` () → `text` | Returns the name of the privilege the queue asks for. |',
      '',
      '```',
      "SELECT has_queue_privilege('orders');",
      '```',
    ].join('\n');
    const page = { url: 'https://acme.test/docs/queue-functions', title: 'Queue functions', markdown };
    const usage = composeFrom('How do I see how full the queue is, as a fraction of its maximum size?', [page]);
    assert.match(usage.text, /^`queue_usage` \(\) → `double precision`: Returns the fraction of the queue's maximum size/, usage.text);
    assert.ok(!usage.text.includes('```'), usage.text);
    const privilege = composeFrom('How do I check that the current user has the privilege on a queue?', [page]);
    assert.match(privilege.text, /^`has_queue_privilege`/, privilege.text);
    assert.ok(privilege.text.includes("SELECT has_queue_privilege('orders');"), privilege.text);
    // A name is found in code as a word of its own: `privilege` is not called in `has_queue_privilege(…)`.
    const name = composeFrom('How do I get the name of the privilege the queue asks for?', [page]);
    assert.match(name.text, /^`privilege` \(\) → `text`: Returns the name of the privilege the queue asks for/, name.text);
    assert.ok(!name.text.includes('```'), name.text);
  });

  test('a pasted log line is answered by the sentence telling when the server writes it, not by a sentence sharing more of its words', () => {
    const markdown = [
      'The payout worker sends a batch every `payout_interval` seconds, or when `payout_batch` payouts are waiting.',
      'A storefront that wants its money sooner might lower `payout_interval` so that batches are sent more frequently, at a higher fee per batch.',
      'If batches are sent closer together than `payout_warning` seconds, a message is written recommending a larger `payout_batch`.',
    ].join(' ');
    const section = { url: 'https://acme.test/docs/payouts#batches', title: 'Payouts', section: 'Payout batches', markdown };
    const { text } = composeFrom('LOG:  payout batches are sent too frequently (3 seconds apart)', [section]);
    assert.match(text, /^If batches are sent closer together than `payout_warning` seconds, a message is written recommending a larger `payout_batch` \[1\]\./);
  });

  test('a pasted error is not shown by a sentence that only names what it is about ("a read-only ledger"): the sentence that explains it is quoted', () => {
    const markdown = [
      'A ledger can be opened read-write or read-only.',
      'A read-write export cannot be restored into a read-only ledger.',
      'When a ledger is read-only, the following commands are refused: `acme post`, `acme void` and `acme close`.',
    ].join(' ');
    const section = { url: 'https://acme.test/docs/ledgers#modes', title: 'Ledgers', section: 'Ledger modes', markdown };
    const { text } = composeFrom('ERROR:  cannot run POST on a read-only ledger', [section]);
    assert.match(text, /^When a ledger is read-only, the following commands are refused/);
  });

  test('a pasted error is shown by the example that shows it, not by the next example after the sentence explaining it', () => {
    const markdown = [
      'When a payout exceeds the daily cap, it is refused:',
      '',
      '```pycon',
      '>>> payouts.send(12_000)',
      'CapError: Exceeds the daily cap (10000) for payouts: payout is 12000; use payouts.raise_cap() to raise the cap.',
      '```',
      '',
      'The default cap is 10000 for new storefronts.',
      '',
      'Check:',
      '',
      '```pycon',
      '>>> payouts.cap',
      '10000',
      '```',
    ].join('\n');
    const { text } = composeFrom('CapError: Exceeds the daily cap (10000) for payouts: payout is 12000', [{ url: 'https://acme.test/docs/payouts#cap', title: 'Payouts', section: 'Daily cap', markdown }]);
    assert.equal(
      text,
      'The default cap is 10000 for new storefronts [1].\n\n```pycon\n>>> payouts.send(12_000)\nCapError: Exceeds the daily cap (10000) for payouts: payout is 12000; use payouts.raise_cap() to raise the cap.\n```',
    );
  });

  test('a pasted error is explained by the page whose example shows it, with the sentence leading to the example, not by an entry that says the same words', async () => {
    const { json } = await ask('SpoolError: write to a closed spool file.');
    assert.match(json.text, /^After a spool is closed, either by a `with` statement or by calling `spool\.close\(\)`, attempts to use it will automatically fail \[1\]\./);
    assert.ok(json.text.includes("```pycon\n>>> spool.close()\n>>> spool.write(b'entry')"), json.text);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/tutorial/spools#reading-and-writing-spools']);
  });

  test('the sentence explaining a pasted error is where the page shows it, however far down its section, before an entry in other words', () => {
    const opening = Array.from({ length: 12 }, (_, index) => `Spools opened in mode ${index} keep their entries in the order they arrive.`);
    const tutorial = {
      url: 'https://acme.test/docs/tutorial/spools#reading-and-writing-spools',
      title: 'Spools',
      section: 'Reading and writing spools',
      markdown: [...opening, '', 'After a spool is closed, attempts to use it will automatically fail.', '', '```pycon', ">>> spool.write(b'entry')", 'SpoolError: write to a closed spool file.', '```'].join('\n'),
    };
    const entry = { url: 'https://acme.test/docs/api/spool#Spool.close', title: 'Spool API', section: 'Spool.close()', markdown: 'Once the spool file is closed, any write to the spool file will raise a `SpoolError`.' };
    const { text, cited } = composeFrom('SpoolError: write to a closed spool file.', [tutorial, entry]);
    assert.match(text, /^After a spool is closed, attempts to use it will automatically fail \[1\]\./);
    assert.deepEqual(cited.map((section) => section.url), [tutorial.url]);
  });

  test('the sentence leading to an example that shows a pasted error is quoted with that example, not an earlier one, also before a short "For example:"', () => {
    const ports = (leadIn: string) => {
      const markdown = ['Restarting a relay too quickly can fail with:', '', '```text', 'RelayError: [E42] port already bound', '```', '', 'Relays restart in the order they were started.', '', leadIn, '', '```sh', '$ assist relay start --port 7000', 'RelayError: [E42] port already bound', '```'].join('\n');
      return composeFrom('RelayError: [E42] port already bound', [{ url: 'https://acme.test/docs/relay#ports', title: 'Relay', section: 'Ports', markdown }]).text;
    };
    const example = '```sh\n$ assist relay start --port 7000\nRelayError: [E42] port already bound\n```';
    assert.equal(ports('After a relay is stopped, its port stays bound for a minute, and a new relay on that port fails.'), `After a relay is stopped, its port stays bound for a minute, and a new relay on that port fails [1].\n\n${example}`);
    assert.equal(ports('After a relay is stopped, its port stays bound for a minute, and a new relay on that port fails. For example:'), `After a relay is stopped, its port stays bound for a minute, and a new relay on that port fails. For example [1]:\n\n${example}`);
  });

  test('the visitor\'s own name for an object ("myqueue.close()", "my_queue") is read as the type it names, a module\'s name ("mysql") is not', () => {
    const passage = { url: 'https://acme.test/docs/queues#queue-close', title: 'Queues', section: 'queue.close()', markdown: 'Closes the queue, so that no entry can be added to it.' };
    for (const question of ['What does myqueue.close() do?', 'What does my_queue.close() do?']) {
      assertAnswer(question, [passage], '`queue.close()`: Closes the queue, so that no entry can be added to it [1].', [passage]);
    }
    const sql = { url: 'https://acme.test/docs/sql#sql-connect', title: 'SQL', section: 'sql.connect()', markdown: 'Opens a connection to the ledger database.' };
    assert.deepEqual(composeFrom('What does mysql.connect() do?', [sql]).cited, [], 'not answered from `sql.connect()`');
  });

  test('a note of what a version changed gives way to the sentence that says what happens now, unless versions are asked about', () => {
    const entry = {
      url: 'https://acme.test/docs/ledgers#ledgers.resolve_name',
      title: 'Ledgers',
      section: 'ledgers.resolve_name(name, book)',
      markdown: [
        'Resolve a relative ledger name to an absolute one, within the book given.',
        '',
        'Names are looked up in the order the books were opened, and the first match wins. The book must be open; a closed book is skipped.',
        '',
        '`LedgerError` is raised if a relative name has no book to resolve it in.',
        '',
        'Changed in version 3.9: To match the import of ledgers, raise `LedgerError` instead of `ValueError` for invalid relative ledger names.',
      ].join('\n'),
    };
    const now = composeFrom('LedgerError: attempted relative ledger name with no known book', [entry]);
    assert.match(now.text, /`LedgerError` is raised if a relative name has no book to resolve it in \[1\]\.$/);
    assert.doesNotMatch(now.text, /Changed in version/);
    const changed = composeFrom('What changed in version 3.9 about LedgerError for relative ledger names?', [entry]);
    assert.match(changed.text, /Changed in version 3\.9: To match the import of ledgers, raise `LedgerError` instead of `ValueError`/);
  });

  test('a line that only lists names (an alphabetical table of functions) is not quoted as an answer', () => {
    const index = {
      url: 'https://acme.test/docs/checks',
      title: 'Built-in checks',
      markdown: 'The checks are listed here in alphabetical order.\n\n| Checks |  |\n| --- | --- |\n| A `abs()` `all()` `any()` `ascii()` B `bin()` `bool()` | C `chr()` `count()` D `dict()` `dir()` |',
    };
    const howto = {
      url: 'https://acme.test/docs/checks-howto#truth',
      title: 'Checks HOWTO',
      section: 'Truth of a whole ledger',
      markdown: 'The two checks look at the truth of every entry of a ledger. `any()` returns `True` if any entry of the ledger is true, and `all()` returns `True` if all of them are.',
    };
    for (const question of ["What's the difference between all() and any()?", 'What do all() and any() do?']) {
      const answer = composeFrom(question, [index, howto]);
      assert.match(answer.text, /`any\(\)` returns `True` if any entry of the ledger is true, and `all\(\)` returns `True` if all of them are \[1\]\.$/, question);
      assert.deepEqual(answer.cited.map((section) => section.url), [howto.url], question);
    }
  });

  test('a stop word in capitals ("COMBINE ALL", "NOT IN") is a keyword the question asks about', () => {
    const combining = { url: 'https://acme.test/docs/reports#combining', title: 'Reports', section: 'Combining reports', markdown: 'Reports can be combined with COMBINE, which keeps one copy of each entry found in both.' };
    const duplicates = { url: 'https://acme.test/docs/reports#duplicates', title: 'Reports', section: 'Duplicates', markdown: 'COMBINE ALL keeps every entry of both reports, duplicates included, and is faster.' };
    assertAnswer('Why would I use COMBINE ALL?', [combining, duplicates], 'COMBINE ALL keeps every entry of both reports, duplicates included, and is faster [1].', [duplicates]);
  });

  test('a sentence that says what to do answers before a list item that only names the same things', () => {
    const behaviour = { url: 'https://acme.test/docs/locales#behaviour', title: 'Locales', section: 'Behaviour', markdown: 'The locale affects:\n\n- Key matching (`MATCH` and `FIND`); locales affect case insensitive matching of keys\n- Sorting of keys in reports' };
    const matching = { url: 'https://acme.test/docs/keys#loose', title: 'Keys', section: 'Exact and loose matching', markdown: 'Keys are matched exactly by default. The key word `IMATCH` can be used instead of `MATCH` to make the match case insensitive.' };
    const question = 'why does MATCH not match my upper case keys? need case insensitive';
    assertAnswer(question, [behaviour, matching], 'The key word `IMATCH` can be used instead of `MATCH` to make the match case insensitive [1].', [matching]);
  });

  test('numbered steps keep the code between them, the last step\'s announced code too, in one procedure', () => {
    const steps = [
      '1. Create the branch with its city:',
      '',
      '```sh',
      'acme branch create --city Lyon',
      '```',
      '',
      '2. Open it for sales. Sales start the next morning.',
      '3. Give staff their badges:',
      '',
      '```sh',
      'acme badges issue --branch Lyon',
      '```',
    ];
    const markdown = ['To open a branch, use the following steps:', '', ...steps, '', 'Branches close at midnight.'].join('\n');
    const { text } = composeFrom('How do I open a branch?', [{ url: 'https://acme.test/docs/branches#opening', title: 'Branches', section: 'Opening a branch', markdown }]);
    assert.equal(text, ['To open a branch, use the following steps [1]:', '', ...steps].join('\n'));
  });

  test('"How do I …?" is shown the passage\'s numbered steps, announced, not the example above the sentence that answers', () => {
    const steps = ['1. Create the ledger as a split ledger:', '', '```sh', 'acme ledger create sales --split-by month', '```', '', '2. Add a part for each month.'];
    const markdown = [
      'Conceptually, a sales ledger is one list of entries:',
      '',
      '```text',
      '2024-01-03  coffee  3.50',
      '```',
      '',
      'Most reports read only the last month, so a big ledger is best split into monthly parts, the oldest part dropped each month.',
      '',
      'To split one, use the following steps:',
      '',
      ...steps,
    ].join('\n');
    const { text } = composeFrom('How do I split a big ledger into monthly parts?', [{ url: 'https://acme.test/docs/ledgers#splitting', title: 'Ledgers', section: 'Splitting a ledger', markdown }]);
    assert.equal(text, ['Most reports read only the last month, so a big ledger is best split into monthly parts, the oldest part dropped each month. To split one, use the following steps [1]:', '', ...steps].join('\n'));
    // Steps about something else ("If the build then fails, check the following:") leave the sentence its own example.
    const install = ['```sh', 'npm install @acme/widget', '```', '', 'Run this command to install the widget in your project.', '', 'If the build then fails, check the following:', '', '1. The lock file is committed.', '2. The registry is reachable.'].join('\n');
    const installed = composeFrom('How do I install the widget?', [{ url: 'https://acme.test/docs/install', title: 'Install', section: 'Installing', markdown: install }]);
    assert.equal(installed.text, 'Run this command to install the widget in your project [1].\n\n```sh\nnpm install @acme/widget\n```');
  });

  test('an explained error whose explanation leads to the fix ("To prevent this, set the reuse flag:") is shown the fix', () => {
    const relay = relayTroubleshooting('This is because the old relay still holds the port for a minute. To prevent this, set the reuse flag:');
    const { text } = composeFrom('RelayError: [E42] port already bound', [relay]);
    assert.equal(text, 'This is because the old relay still holds the port for a minute. To prevent this, set the reuse flag [1]:\n\n```sh\nassist relay --reuse-port\n```');
  });

  test('a pasted error is answered by the fix the page gives ("The fix is to …"), not by what else its examples show', () => {
    const markdown = [
      'A relay restarted too quickly fails:',
      '',
      '```text',
      'RelayError: [E42] port already bound',
      '```',
      '',
      'In addition, the verbose log shows which relay still holds the port:',
      '',
      '```text',
      'relay.log:3: RelayError: [E42] port already bound (held by relay 7)',
      '```',
      '',
      'The fix is to let the new relay reuse the port. Example using the reuse flag:',
      '',
      '```sh',
      'assist relay --reuse-port',
      '```',
    ].join('\n');
    const { text } = composeFrom('RelayError: [E42] port already bound', [{ url: 'https://acme.test/docs/relay#restarting', title: 'Relay', section: 'Restarting', markdown }]);
    assert.equal(text, 'The fix is to let the new relay reuse the port. Example using the reuse flag [1]:\n\n```sh\nassist relay --reuse-port\n```');
  });

  test('the fix a page gives after a pasted error is shown with its own example, not the error\'s', () => {
    const relay = relayTroubleshooting('The old relay still holds the port for a minute.', '', 'To fix this, pass the reuse flag.');
    const { text } = composeFrom('RelayError: [E42] port already bound', [relay]);
    assert.match(text, /To fix this, pass the reuse flag \[1\]\.\n\n```sh\nassist relay --reuse-port\n```$/);
    assert.ok(!text.includes('```text'), text);
  });

  test('a sentence added to the answer keeps the ones after it that lean on it and say how ("This method is used by …")', () => {
    const markdown = [
      'Importing can get in the way of daily bookkeeping. Normally Acme locks a ledger against postings while it imports. Clerks can still read the ledger, but if they try to post to it they are blocked until the import is finished. This could hurt a busy office at the end of a month.',
      '',
      'Acme supports importing a ledger without blocking postings. This method is used by passing the `--online` flag to `acme import`. When this flag is used, Acme reads the ledger twice and waits for every open posting to finish first.',
    ].join('\n');
    const { text } = composeFrom('How do I import a ledger while clerks post to it?', [{ url: 'https://acme.test/docs/import#concurrency', title: 'Importing', section: 'Concurrency', markdown }]);
    assert.match(text, /Acme supports importing a ledger without blocking postings\. This method is used by passing the `--online` flag to `acme import` \[1\]\.$/);
  });

  test('the end of a sentence an example interrupted ("and: [example] are that …") is not quoted as a sentence of its own', () => {
    const markdown = ['The main differences between:', '', '```sh', 'acme snapshot create totals', '```', '', 'and:', '', '```sh', 'acme ledger create totals', '```', '', 'are that a snapshot ledger cannot be posted to directly and that it is refreshed with `acme snapshot refresh`.', '', 'Posting to a snapshot ledger fails with `E17`: post to the ledger it was taken from.'].join('\n');
    const { text } = composeFrom('Can I post to a snapshot ledger directly?', [{ url: 'https://acme.test/docs/snapshots', title: 'Snapshots', section: 'Snapshot ledgers', markdown }]);
    assert.equal(text, 'Posting to a snapshot ledger fails with `E17`: post to the ledger it was taken from [1].');
  });

  test('a decorator\'s entry names the decorator, with its parameters, before what it does', () => {
    const retry = { url: 'https://acme.test/docs/decorators#retry', title: 'Decorators', section: 'Decorators › @acme.retry(times)', markdown: 'Retry the decorated call up to times times when it fails with a network error.' };
    assertAnswer('How do I retry a call that fails?', [retry], '`@acme.retry(times)`: Retry the decorated call up to times times when it fails with a network error [1].', [retry]);
  });

  test('where the visitor says it happens ("inside the ledger", "within a session") is not asked of the answer', () => {
    const hashing = { url: 'https://acme.test/docs/acmecrypt#hashing', title: 'acmecrypt', section: 'Hashing passwords', markdown: 'To hash a password, pass it to `acme_hash()`. To check one, compare `acme_hash()` of what was typed with the stored hash.' };
    for (const where of ['inside the ledger', 'within the ledger']) {
      const { text, cited } = composeFrom(`How do I hash and check a user password ${where} with acmecrypt?`, [hashing]);
      assert.match(text, /acme_hash\(\)/, where);
      assert.deepEqual(cited.map((section) => section.url), [hashing.url], where);
    }
  });

  test('a question written in capitals, or starting with "without", is read like any other', () => {
    const closing = { url: 'https://acme.test/docs/ledgers#closing', title: 'Ledgers', section: 'Closing a ledger', markdown: 'To close a ledger, run `acme ledger close` with its name.' };
    for (const question of ['HOW DO I CLOSE a ledger?', 'Without restarting how do I close a ledger?']) {
      assertAnswer(question, [closing], 'To close a ledger, run `acme ledger close` with its name [1].', [closing]);
    }
  });

  test('a step that answers is shown with the whole procedure, from the sentence that announces it, not twice', () => {
    const steps = ['1. Create the branch with its city:', '', '```sh', 'acme branch create --city Lyon', '```', '', '2. Give staff their badges for the branch.'];
    const markdown = ['To open a branch, use the following steps:', '', ...steps].join('\n');
    const { text } = composeFrom('How do I give staff badges?', [{ url: 'https://acme.test/docs/branches#opening', title: 'Branches', section: 'Opening a branch', markdown }]);
    assert.equal(text, ['To open a branch, use the following steps [1]:', '', ...steps].join('\n'));
    // Every step numbered "1.", as markdown allows, is the same procedure.
    const lazy = markdown.replace('2. Give', '1. Give');
    assert.equal(composeFrom('How do I open a branch?', [{ url: 'https://acme.test/docs/branches#opening', title: 'Branches', section: 'Opening a branch', markdown: lazy }]).text, ['To open a branch, use the following steps [1]:', '', ...steps].join('\n'));
  });

  test('a list item that announces the items after it, at its own level, is followed by them', () => {
    const markdown = ['- Exports can be written in these formats, chosen per export:', '- CSV, with a header row', '- JSON lines, one object per line', '', 'Exports are kept for a week.'].join('\n');
    const { text } = composeFrom('Which formats can exports be written in?', [{ url: 'https://acme.test/docs/exports', title: 'Exports', section: 'Formats', markdown }]);
    assert.equal(text, 'Exports can be written in these formats, chosen per export [1]:\n\n- CSV, with a header row\n- JSON lines, one object per line');
  });

  test('when the sentence that matches best is in a passage that does not cover the question, a passage that does answers instead of a refusal', () => {
    const passage = (number: number, title: string, section: string, markdown: string) => ({ url: `https://acme.test/docs/${number}`, title, section, markdown });
    const { text, cited } = composeFrom('How do I pause the payout schedule over a bank holiday?', [
      // First in rank and its heading names two of the question's words, but it says nothing of payouts or holidays.
      passage(1, 'Schedules', 'Pausing a schedule', 'To pause a schedule, press Pause on the schedule page.'),
      passage(2, 'Invoices', 'Sending invoices', 'Invoices are sent on the first day of the month.'),
      passage(3, 'Reports', 'Monthly reports', 'Reports are written at the end of each month.'),
      passage(4, 'Bank holidays', 'Payouts', 'No payouts are sent on a bank holiday; a schedule that would send one waits for the next working day.'),
    ]);
    assert.equal(text, 'No payouts are sent on a bank holiday; a schedule that would send one waits for the next working day [1].');
    assert.deepEqual(cited.map((section) => section.url), ['https://acme.test/docs/4']);
  });

  test('a label line ("Source code: …") is never quoted as the answer', async () => {
    const { json } = await ask('What is the archive source code?');
    assert.doesNotMatch(json.text, /Source code: acme\/archive\.py/);
  });

  test('"turn on" asks what the page calls "enable"', async () => {
    const { json } = await ask('How do I turn on debug output?');
    assert.match(json.text, /^The debug output of a widget lists every request it sends\. Debug output can be enabled with the `--debug` option of the server \[1\]\./);
  });

  test('"how do I …?" shows the passage\'s example even when it is not next to the sentence that answers', async () => {
    const { json } = await ask('How do I export reports?');
    assert.match(json.text, /^`?Reports are exported by `acme\.export_reports`, once per month\./);
    assert.ok(json.text.includes('```python\nacme.export_reports(month=3)\n```'), json.text);
  });

  test('a keyword named as such ("the with statement") is what is asked about, not a stop word', async () => {
    const { json } = await ask('What does the with statement do?');
    assert.equal(json.sources[0].url, 'https://acme.test/docs/language#the-with-statement');
    assert.match(json.text, /^Runs its block with a name bound to a value/);
  });

  test('"what is …?" about a topic is answered by the topic, not by an API entry that mentions it', async () => {
    // "whats", typed without its apostrophe, asks what "what's" asks.
    for (const question of ['What is a ledger?', 'whats a ledger?']) await assertAnsweredAsLedger(question);
  });

  test('a list of the passage\'s own, however many short items it has, is quoted: it is not a table of contents', async () => {
    const { json } = await ask('Which formats can bank statements be downloaded in?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/statement-formats');
    assert.ok(json.text.includes('- CSV spreadsheet\n- JSON document\n- Parquet columns'), json.text);
  });

  test('a keyword that is an English stop word, in capitals ("HAVING", "WHERE"), is what the question asks about', async () => {
    for (const question of ['What does HAVING do?', 'whats the difference between WHERE and HAVING']) {
      const { json } = await ask(question);
      assert.match(json.text, /^`HAVING` keeps the groups whose condition is true, after `GROUP BY`\. `WHERE` filters the rows before they are grouped \[1\]\./, question);
      assert.equal(json.sources[0]?.url, 'https://acme.test/docs/report-queries#filtering-groups', question);
    }
  });

  test('a pasted error message is answered by the sentence that explains it where the page shows it', async () => {
    const { json } = await ask('The dashboard says ERROR: account "bob" does not exist');
    assert.match(json.text, /^This happens when nobody has invited you yet: ask an owner of the organisation for an invitation \[1\]\./);
    assert.equal(json.sources[0].url, 'https://acme.test/docs/troubleshooting#signing-in-to-the-dashboard');
  });

  test('"Which setting …?" is answered by the setting\'s entry, not by a passage that shares more of its words', async () => {
    const { json } = await ask('Which setting controls how much memory a sort may use before it spills to disk?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/server-settings#sort_memory-integer', json.text);
    assert.match(json.text, /^`sort_memory \(integer\)`: Sets the base maximum amount of memory/);
  });

  test('"Which memory setting makes … go faster?" is answered by the entry of a setting, whose name the visitor cannot know, not by a parameter in capitals that shares more words', async () => {
    const { json } = await ask('which memory setting makes building the index of a big journal go faster?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/server-settings#upkeep_mem-integer', json.text);
    assert.match(json.text, /^`upkeep_mem \(integer\)`: Specifies the maximum amount of memory used by upkeep operations/);
  });

  test('"What is a remittance?" is answered by the section on it, whose number ("31.1.2.") names nothing, not by the view named after it nor the command that drops one', async () => {
    const { json } = await ask('What is a remittance?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/remittances', json.text);
    assert.match(json.text, /^A remittance is a set of payments sent together to one supplier/);
  });

  test('"What is a remittance in batch payouts?" asks what a remittance is: the section on it answers, not the chapter on where it is used', async () => {
    const { json } = await ask('What is a remittance in batch payouts?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/remittances', json.text);
    assert.match(json.text, /^A remittance is a set of payments sent together to one supplier/);
  });

  test('"What is a standing order?" is answered where one is created, not by the commands that change or drop one, unless one is asked about', async () => {
    const { json } = await ask('What is a standing order?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/commands/create-standing-order', json.text);
    assert.match(json.text, /A standing order is a payment the ledger repeats on a schedule/);
    // A question about such a command is answered by its page.
    const altering = await ask('What is ALTER REMITTANCE?');
    assert.equal(altering.json.sources[0]?.url, 'https://acme.test/docs/commands/alter-remittance', altering.json.text);
  });

  test('a page of C declarations answers questions about C only: "How do I clear the lines of a receipt?" is answered by the guide, not by `void Receipt_Clear(…)`', async () => {
    for (const [question, url] of [
      ['What is a receipt?', 'https://acme.test/docs/receipts'],
      ['How do I clear the lines of a receipt?', 'https://acme.test/docs/receipts#correcting-a-receipt'],
    ]) {
      const { json } = await ask(question);
      assert.equal(json.sources[0]?.url, url, `${question}\n${json.text}`);
    }
    // A question that speaks of C, or names a declared function, is answered from its declaration.
    for (const question of ['How do I clear a receipt from C code?', 'What does Receipt_Clear() do?']) {
      const { json } = await ask(question);
      assert.equal(json.sources[0]?.url, 'https://acme.test/docs/c-api/receipt#void-receipt_clearacmeobject-receipt', `${question}\n${json.text}`);
    }
  });

  test("a table's row answers for what it names: a function and what it does", async () => {
    const { json } = await ask('What does payment_total do?');
    assert.match(json.text, /^`payment_total\(month\)`: Adds up every payment of a month, refunds subtracted \[1\]\./);
    assert.equal(json.sources[0].url, 'https://acme.test/docs/functions');
  });

  test('a table of contents is not an answer, even without links: its topics are answered where they are written', async () => {
    const { json } = await ask('How do I get a refund for my order?');
    assert.equal(json.sources[0].url, 'https://acme.test/docs/billing#refunds');
    assert.ok(!json.sources.some((source: { url: string }) => source.url.startsWith('https://acme.test/docs/money')));
  });

  test('a section is about what its parent headings name: "Exporting payments › Options" answers about exporting', async () => {
    const { json } = await ask('How do I set the delimiter when exporting payments?');
    assert.equal(json.sources[0].url, 'https://acme.test/docs/ledger-guide#options');
    assert.match(json.text, /^Set the delimiter with `--delimiter`/);
  });

  test('a row of a comparison table names each value by its column, also in a row with a cell left out', async () => {
    const { json } = await ask('Which export gives a printable statement?');
    assert.match(json.text, /^Output: `export_sheet`: One row per payment, for spreadsheets; `export_statement`: A printable statement with one page per month \[1\]\./);
    const archived = await ask('How long is an export archive kept?');
    assert.match(archived.json.text, /^Archive: `export_sheet`: Kept for a year \[1\]\./);
  });

  test('a bare name is answered by the row it heads, not by a row that mentions it', async () => {
    const { json } = await ask('refund_age');
    assert.match(json.text, /^`refund_age\(month\)`: Days since the last refund of a month \[1\]\./);
  });

  test('a call named in the question ("blend()") is answered by its entry, not by the module named after the word', async () => {
    const { json } = await ask('What does blend() do?');
    assert.equal(json.sources[0].url, 'https://acme.test/docs/builtins#blendrolls-strictfalse');
    assert.match(json.text, /Walks several rolls side by side, producing rows with an entry from each one/);
  });

  test('a setting is found by the words of its name: "maximum number of sessions" is `max_sessions`', async () => {
    const { json } = await ask('How do I raise the maximum number of sessions?');
    assert.match(json.sources[0].url, /server-settings#max_sessions/);
    assert.match(json.text, /^`max_sessions \(integer\)`: Determines the maximum number of concurrent sessions of the dashboard/);
  });

  test('a sentence about the page ("This chapter explains …") is not the answer; the one about the topic is', async () => {
    const { json } = await ask('What is the payment journal?');
    assert.match(json.text, /^The payment journal is a file where every payment is written before the ledger changes/);
  });

  test('a sentence that leans on the one before it ("These are called …") is quoted after it', async () => {
    const { json } = await ask('What are reservation locks?');
    assert.match(json.text, /^Acme provides a means for holding orders for reasons only your shop knows\. These are called reservation locks/);
  });

  test('two words the question puts side by side ("merge all") find the sentence that says them so', async () => {
    const { json } = await ask('How does merge all work?');
    assert.match(json.text, /^The merge command combines the reports of two months into one\. Rows found in both months appear once in the merged report\. With merge all, every row is kept, duplicates included \[1\]\./);
  });

  test('words that judge or count rather than name ("best", "easiest", "ok", "good", "pick", "another", "much") are not asked of the answer', async () => {
    const { json } = await ask('Best, easiest way to rotate the signing key, ok?');
    assert.match(json.text, /^To rotate the signing key, open the widget settings/);
    const asked = await ask('What is a good, useful way to rotate the signing key? Which would you pick?');
    assert.match(asked.json.text, /^To rotate the signing key, open the widget settings/);
    const other = await ask('Is there another, much better way to rotate every signing key?');
    assert.match(other.json.text, /^To rotate the signing key, open the widget settings/);
  });

  test("the passage's next best sentence is quoted with the one that answers, when it says the rest", async () => {
    const { json } = await ask('How do I turn on safe mode?');
    assert.match(json.text, /^Safe mode adds checks that are too slow for busy shops\. It can be enabled with the `--checks` flag of the server \[1\]\./);
  });

  test('a sentence that announces the example is followed by the example, not by another sentence', async () => {
    const { json } = await ask('How are vouchers defined?');
    assert.ok(json.text.startsWith('Vouchers are defined like this [1]:\n\n```python\nvoucher = acme.Voucher(amount=10)\n```'), json.text);
  });

  test('a later sentence of a passage headed by what is asked comes after the passage’s opening, which says what it is', async () => {
    const { json } = await ask('Can each storefront set its own trial period?');
    assert.match(json.text, /^The trial period is the time a new storefront may sell without paying\. It starts on the day the storefront opens\. Each storefront can set its own period with `trial_days`, in days \[1\]\./);
  });

  test('"What is a tally?" is answered under the heading that names just that ("Tallies"), not one that narrows it ("Nested tallies")', async () => {
    const { json } = await ask('What is a tally?');
    assert.equal(json.sources[0].url, 'https://acme.test/docs/accounts#tallies');
    assert.match(json.text, /^Tallies count the visits of an account, in the order they were made \[1\]\./);
  });

  test('"How do I add a shelf?" finds the section headed "Adding a shelf": "adding" and "add" are one word', async () => {
    const { json } = await ask('How do I add a shelf?');
    assert.equal(json.sources[0].url, 'https://acme.test/docs/shelves#adding-a-shelf');
    assert.match(json.text, /^Open the storefront editor and choose New shelf \[1\]\./);
  });

  test('the opening goes before the paragraph of the answering sentence, which is not quoted twice', async () => {
    const { json } = await ask('Are badge stacks capped per order?');
    assert.match(json.text, /^Badge stacks group the badges of one customer\. Stacks grow with every order\. These stacks are capped at five badges per order \[1\]\./);
  });

  test('the citation of a sentence ending in "e.g.:" goes before the colon, after the abbreviation', async () => {
    const { json } = await ask('Where are coupons listed?');
    assert.match(json.text, /^Coupons are listed under the storefront, e\.g\. \[1\]:\n\n```text\nSPRING24  10%\n```/);
  });

  test('a sentence that sends the reader elsewhere ("For more information, see …") is not the answer', async () => {
    const { json } = await ask('What is a gift card?');
    assert.match(json.text, /^A gift card pays for any order until its balance is spent/);
    // "See also …" only points at another place, whatever words it shares with the question.
    const points = await ask('What are loyalty points?');
    assert.match(points.json.text, /^Loyalty points are earned with every paid order/, points.json.text);
  });

  test('a version the visitor mentions is not required of the answer', async () => {
    const { json } = await ask('How do I rotate the signing key in version 2.5.1?');
    assert.ok(json.sources.length > 0, json.text);
    assert.match(json.text, /To rotate the signing key/);
  });

  test("a pasted error with the visitor's own name unquoted in it is found where the page shows it with another", async () => {
    const { json } = await ask('ERROR: cannot close ledger march because other payments depend on it');
    assert.match(json.text, /^Settle the payments first, or close the month with `--cascade`/);
    assert.equal(json.sources[0].url, 'https://acme.test/docs/closing');
  });

  test('a refusal cites nothing and lists no sources, in the stream as in JSON', async () => {
    const question = 'What is the boiling point of mercury in the widget?';
    const { json } = await ask(question);
    assert.equal(json.text, NO_ANSWER.en);
    assert.deepEqual(json.sources, []);
    const streamed = await streamRequest(server.url, CHAT, { token: 'ws_test_help', body: { message: question } });
    assert.deepEqual(streamed.events.find((event) => event.event === 'sources')!.data, { sources: [] });
    assert.deepEqual(streamed.events.at(-1)!.data.sources, []);
  });
});

describe("the visitor's language", () => {
  test('the refusal follows the browser language (Accept-Language) for each of the 13 built-in locales', async () => {
    for (const locale of LOCALES) {
      const { json } = await ask('What is the boiling point of mercury?', { 'Accept-Language': `${locale},en;q=0.5` });
      assert.equal(json.text, NO_ANSWER[locale], locale);
    }
    assert.notEqual(NO_ANSWER.de, NO_ANSWER.en);
  });

  test("a language the widgets do not serve falls back to the widget's default language, then English", async () => {
    const german = await ask('What is the boiling point of mercury?', { 'Accept-Language': 'sv-SE, fi;q=0.8' }, 'hilfe');
    assert.equal(german.json.text, NO_ANSWER.de);
    const withoutHeader = await ask('What is the boiling point of mercury?', {}, 'hilfe');
    assert.equal(withoutHeader.json.text, NO_ANSWER.de);
    const english = await ask('What is the boiling point of mercury?', { 'Accept-Language': 'sv-SE' });
    assert.equal(english.json.text, NO_ANSWER.en);
    const austrian = await ask('What is the boiling point of mercury?', { 'Accept-Language': 'de-AT' });
    assert.equal(austrian.json.text, NO_ANSWER.de);
  });
});

describe('summaries agree with the results', () => {
  const search = (query: string) => server.request('POST', '/api/v1/acme/widgets/find/search', { token: 'ws_test_find', body: { query } });
  const summarize = (query: string, headers?: Record<string, string>) => server.request('POST', SUMMARIZE, { token: 'ws_test_find', body: { query }, headers });

  test('a summary is built from the hits the visitor sees, and cites only those', async () => {
    // 'proxy windows mercury': the hits hold two of three words; the summary quotes them instead of saying "not found".
    for (const query of ['refund', 'order number', 'sign visitor id python', 'accent colour', 'billing desk', 'proxy windows mercury']) {
      const hits = (await search(query)).json.hits as { url: string }[];
      assert.ok(hits.length > 0, query);
      const summary = (await summarize(query)).json;
      assert.equal(summary.summarized, true, query);
      assert.doesNotMatch(summary.text, /couldn't find/, query);
      const shown = hits.slice(0, 4).map((hit) => hit.url);
      for (const source of summary.sources) assert.ok(shown.includes(source.url), `${query}: ${source.url} is one of the first hits`);
    }
  });

  test('a summary streamed has the same sources in its sources event as in done', async () => {
    const result = await streamRequest(server.url, SUMMARIZE, { token: 'ws_test_find', body: { query: 'refund' } });
    const sources = result.events.find((event) => event.event === 'sources')!.data.sources;
    const done = result.events.at(-1)!.data;
    assert.equal(done.summarized, true);
    assert.deepEqual(done.sources, sources);
    assert.deepEqual(citations(done.text), sources.map((_: unknown, index: number) => index + 1));
  });
});

/** Asks the acme help widget's chat, as the widget does. */
function chatOn(server: TestServer, message: string) {
  return server.request('POST', '/api/v1/acme/widgets/help/chat', { token: 'ws_test_help', body: { message } });
}

/** Adds a page to the acme docs through the pages API, as a crawler would. */
async function pushPage(server: TestServer, slug: string, title: string, content: string): Promise<void> {
  const response = await server.request('POST', '/api/v1/acme/sources/docs/pages', { token: 'ak_test_all', body: { url: `https://acme.test/docs/${slug}`, title, content } });
  assert.equal(response.status, 201, response.text);
}

describe('a section that goes on after the entries under it', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    // As a reference page is written (Sphinx): the section's opening says what its heading names, the entries under it
    // follow, and the section goes on after them with a short "See also", a piece of its own at the same address.
    const reference = [
      '<html><head><title>Relay reference</title></head><body><div role="main"><section id="relay-reference"><h1>Relay reference</h1>',
      '<p>The relay forwards each message it receives to the services that asked for it.</p>',
      '<section id="relay-hooks"><h2>Relay hooks</h2>',
      '<p>A relay hook is a function that the relay calls before it forwards a message, so that it can change the message or drop it. Hooks run in the order they were added, each with the message the one before returned, and a message that one of them drops goes no further. Most deployments use them to add headers, mask personal data or turn away what a service should never receive.</p>',
      '<dl class="py function"><dt class="sig sig-object py" id="relay.add_hook"><span class="sig-name descname">relay.add_hook</span>(<em>function</em>)</dt><dd><p>Adds a function to the end of the relay\'s list.</p></dd></dl>',
      '<div class="admonition seealso"><p class="admonition-title">See also</p><p>Changing messages in flight, a tutorial.</p></div>',
      '</section></section></div></body></html>',
    ].join('');
    const response = await own.request('POST', '/api/v1/acme/sources/docs/pages', { token: 'ak_test_all', body: { url: 'https://acme.test/docs/relay', title: 'Relay reference', content: reference, format: 'html' } });
    assert.equal(response.status, 201, response.text);
    // More sections headed by both words than the question's search keeps, each ranked above the long opening and
    // under the short "See also", which is all of the section the search then finds.
    for (let index = 1; index <= 45; index++) await pushPage(own, `region-${index}`, `Region ${index}`, `# Region ${index}\n\nRegion ${index} serves the north.\n\n## Relay hook limits\n\nLimits of relay hooks in region ${index}.`);
  });
  after(() => own.stop());

  test('its opening is read though the search found only the piece after the entries: "What is a relay hook?" is answered by what the opening says', async () => {
    const { json } = await chatOn(own, 'What is a relay hook?');
    assert.match(json.text, /^A relay hook is a function that the relay calls before it forwards a message/, json.text);
    assert.equal(json.sources[0].url, 'https://acme.test/docs/relay#relay-hooks');
  });
});

describe('a question told in several clauses', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    // No page holds every word of the whole question. Of the pages holding all but one of its rarer words, more than
    // enough have one in their title ("Terminal notes"), so only those are ranked, and they fill the whole question's
    // candidates; none of them covers the question, and the pages about the circumstances told first do not either.
    // The page that answers what the visitor asks is found only by the clause that asks it.
    for (let index = 1; index <= 200; index++)
      await addPage(`docker-logs-${index}`, `Docker logs of worker ${index}`, `# Docker logs of worker ${index}\n\nWhat worker ${index} prints shows up in them.`);
    for (let index = 1; index <= 45; index++) await addPage(`terminal-notes-${index}`, `Terminal notes ${index}`, `# Terminal notes ${index}\n\nLate output shows up in the terminal.`);
    await addPage('startup-flags', 'Startup flags', '# Startup flags\n\n## Flags\n\nTo make the output of the worker unbuffered, so that its prints reach the logs at once, terminal or not, start it with `--unbuffered`.');
  });
  after(() => own.stop());

  test('the clause that asks ("how do I make the output unbuffered?") finds its answer after the clauses that tell the circumstances', async () => {
    const { json } = await chatOn(own, 'my worker prints show up late in the docker logs when there is no terminal. how do I make the output unbuffered?');
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/startup-flags#flags'], json.text);
    assert.match(json.text, /^To make the output of the worker unbuffered, .* start it with `--unbuffered`/);
  });
});

describe('an entry of questions and answers', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    // The reference entry says every word of the question, in one sentence; the FAQ's heading asks it in its own words.
    await addPage(
      'ledger-api',
      'Ledger API',
      '# Ledger API\n\n## Ledger classes\n\n### ledger.Table(keys, values)\n\nA ledger table. `keys` and `values` hold lists of entries, the keys of the ledger in the order they were added, so a list of keys can be used to read the ledger back.\n\n```python\n>>> ledger.Table(keys=["a"], values=[1])\n```',
    );
    await addPage('ledger-tables', 'Ledger tables', '# Ledger tables\n\nA ledger keeps its entries in a table, each under a key, and lists them in the order they were added.');
    await addPage(
      'ledger-faq',
      'Ledger FAQ',
      '# Ledger FAQ\n\n## Why must ledger keys be immutable?\n\nThe ledger finds an entry by the hash of its key, so a key must never change once it is stored. A list can change, so it cannot be used as a key: use a tuple instead.\n\n## Why are ledger totals rounded?\n\nTotals are kept in cents.',
    );
  });
  after(() => own.stop());

  test('a heading that asks the question in other words ("Why must ledger keys be immutable?") answers it', async () => {
    const { json } = await chatOn(own, "Why can't I use a list as a ledger key?");
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/ledger-faq#why-must-ledger-keys-be-immutable', json.text);
    assert.match(json.text, /A list can change, so it cannot be used as a key/);
  });
});

describe('an entry of questions and answers headed by the visitor\'s own opening words', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    // The export page holds more of the question's words; the FAQ's heading asks it as the visitor starts to, and its answer says none of the rest.
    await addPage('exports', 'Exports', '# Exports\n\n## Totals in exports\n\nAn export keeps every fraction of a cent of the ledger totals instead of a rounded figure, so the totals can be checked against the bank.');
    await addPage(
      'billing-faq',
      'Billing FAQ',
      '# Billing FAQ\n\n## Why does the ledger round totals when it stores them?\n\nBanks settle payments in whole cents, so a fraction of a cent is dropped as an entry is written.\n\n## Why is my invoice late?\n\nInvoices go out on the first of the month.',
    );
  });
  after(() => own.stop());

  test('a heading that opens as the question does ("Why does the ledger round totals …?") answers it, over a passage holding more of its words', async () => {
    const { json } = await chatOn(own, 'why does the ledger round totals instead of keeping every fraction of a cent?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/billing-faq#why-does-the-ledger-round-totals-when-it-stores-them', json.text);
    assert.match(json.text, /^Banks settle payments in whole cents/);
  });
});

describe('a sentence that only says where the document goes on', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    await pushPage(own, 'ledger-basics', 'Ledger basics', '# Ledger basics\n\nThe ledger keeps every payment of the shop. Later in this chapter we will see how refunds of a month are listed. Each payment has an amount and a date.');
    await pushPage(own, 'refund-reports', 'Refund reports', '# Refund reports\n\n## Monthly list\n\nThe refunds command prints every refund of the month you name, newest first.');
  });
  after(() => own.stop());

  test('"Later in this chapter we will see …" is not the answer, though it holds the question\'s words; the passage that says it is', async () => {
    const { json } = await chatOn(own, 'How are the refunds of a month listed in the ledger?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/refund-reports#monthly-list', json.text);
    assert.match(json.text, /^The refunds command prints every refund of the month you name/);
    assert.doesNotMatch(json.text, /we will see/);
  });
});

describe('a question comparing two things', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    // One passage says "difference" of something else, with one of the two things; the other tells the two apart without the word.
    await pushPage(own, 'sweeps', 'Sweeps', '# Sweeps\n\n## Sweep handlers\n\nThe difference between a sweep handler and an ordinary journal is that the handler settles the payments of a whole day at once.');
    await pushPage(own, 'books', 'Books of account', '# Books of account\n\n## Kinds of books\n\nA journal records every payment in the order it happens, while a ledger keeps the running totals of each account.');
  });
  after(() => own.stop());

  test('is answered by the passage about the two things, not by one that says "the difference between" of another', async () => {
    for (const message of ['What is the difference between a ledger and a journal?', "what's actually the difference between a ledger and a journal? my boss wants journals everywhere and I don't get why"]) {
      const { json } = await chatOn(own, message);
      assert.equal(json.sources[0]?.url, 'https://acme.test/docs/books#kinds-of-books', `${message}: ${json.text}`);
      assert.match(json.text, /^A journal records every payment in the order it happens, while a ledger keeps the running totals/);
    }
  });
});

describe('a call written with its arguments', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    // The tutorial holds more of the question's words; the entry is of the function the visitor called.
    await pushPage(own, 'settling', 'Settling amounts', '# Settling amounts\n\n## Why settle amounts\n\nWhy settle? Settling gives whole amounts: settle 2.5 and 3.5 units and the ledger gives 2 and 4, not 3, when it settles them. Settling is why totals add up.');
    await pushPage(own, 'builtins', 'Built-in functions', '# Built-in functions\n\n## settle(amount, places=None)\n\nReturn the amount rounded to places after the point. Halves go to the even neighbour: both `settle(1.5)` and `settle(2.5)` give `2`.');
  });
  after(() => own.stop());

  test('"settle(2.5)", as the visitor ran it, names the function: its entry answers, as it does for "settle()"', async () => {
    for (const message of ['why does settle(2.5) give 2 and not 3?', 'why does settle() give 2 for 2.5 and not 3?']) {
      const { json } = await chatOn(own, message);
      assert.equal(json.sources[0]?.url, 'https://acme.test/docs/builtins#settleamount-placesnone', `${message}: ${json.text}`);
      assert.match(json.text, /^Halves go to the even neighbour: both `settle\(1\.5\)` and `settle\(2\.5\)` give `2`/);
    }
  });
});

describe('a call written with its arguments, in the letter case the visitor wrote it', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    await pushPage(own, 'builtins', 'Built-in functions', '# Built-in functions\n\n## settle(amount, places=None)\n\nReturn the amount rounded to places after the point.');
    await pushPage(own, 'debugger', 'debugger', '# debugger\n\n## class dbg.Settle(frame)\n\nA stop of the debugger that holds the frame until it is resumed.');
  });
  after(() => own.stop());

  test('"Settle(x)" is answered by the class `Settle`, "settle(x)" by the function `settle()`', async () => {
    const cases = [
      ['What does Settle(x) do?', 'https://acme.test/docs/debugger#class-dbgsettleframe', /A stop of the debugger/],
      ['What does settle(x) do?', 'https://acme.test/docs/builtins#settleamount-placesnone', /Return the amount rounded/],
    ] as const;
    for (const [message, url, text] of cases) {
      const { json } = await chatOn(own, message);
      assert.equal(json.sources[0]?.url, url, `${message}: ${json.text}`);
      assert.match(json.text, text, message);
    }
  });
});

describe('a signature without an anchor, as the term of its definition', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const html =
      '<html><head><title>Mappings</title></head><body><div role="main"><section id="mapping-operations"><h1>Mapping operations</h1><p>Mappings support these operations:</p>' +
      '<dl class="describe"><dt class="sig sig-object py"><span class="sig-name descname"><span class="pre">d</span> <span class="pre">|</span> <span class="pre">other</span></span></dt>' +
      '<dd><p>Create a new mapping with the merged keys and values of <em>d</em> and <em>other</em>; the values of <em>other</em> win when both share keys.</p></dd></dl>' +
      '</section></div></body></html>';
    const response = await own.request('POST', '/api/v1/acme/sources/docs/pages', { token: 'ak_test_all', body: { url: 'https://acme.test/docs/mappings', title: 'Mappings', content: html, format: 'html' } });
    assert.equal(response.status, 201, response.text);
  });
  after(() => own.stop());

  test('is quoted as code: "`d | other`", not "d | other" read as words', async () => {
    const { json } = await chatOn(own, 'How do I merge two mappings, and which values win?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/mappings#mapping-operations', json.text);
    assert.match(json.text, /^`d \| other` : Create a new mapping with the merged keys/);
  });
});

describe('a later sentence of a term\'s definition', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    await pushPage(
      own,
      'burrows',
      'Burrows',
      '# Burrows\n\n## Burrow methods\n\nBurrows have these methods:\n\n`burrow.add(x)`\n: Add a chamber at the far end of the burrow.\n\n`burrow.place(i, x)`\n: Place a chamber at a given position. The first argument is the index of the chamber before which to dig, so `b.place(0, x)` digs at the entrance of the burrow.\n',
    );
  });
  after(() => own.stop());

  test('is quoted after its term: what "the first argument" is of is said', async () => {
    const { json } = await chatOn(own, 'How do I dig a chamber at the entrance of the burrow?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/burrows#burrow-methods', json.text);
    assert.match(json.text, /^`burrow\.place\(i, x\)` : The first argument is the index of the chamber before which to dig/);
  });

  test('a paragraph that only holds " : " (a slice `a[1 : 3]`, a ratio) is no definition: its later sentence is quoted alone', async () => {
    await pushPage(own, 'tunnels', 'Tunnels', '# Tunnels\n\n## Slicing tunnels\n\nUse `t[1 : 3]` to take a slice of a tunnel. Slicing returns a new tunnel, not a view of the original tunnel.');
    const { json } = await chatOn(own, 'What does slicing a tunnel return, a new tunnel or a view?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/tunnels#slicing-tunnels', json.text);
    assert.match(json.text, /^Slicing returns a new tunnel, not a view of the original tunnel/);
  });
});

describe('a word of a letter and a hyphen', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    await addPage('strings', 'Strings', '# Strings\n\n## Using strings\n\nHow do I use strings? A string cannot be changed in place: use a new string built from its parts.');
    await addPage(
      'formatting',
      'Formatting',
      "# Formatting\n\n## Formatted literals\n\nFormatted literals, or f-strings, put the value of an expression inside the text: write `f` before the quote and the expression in braces.\n\n```python\nf'{total} items'\n```",
    );
  });
  after(() => own.stop());

  test('"f-strings" is one word, not a lone "f" and "strings": the page that says it answers', async () => {
    const { json } = await chatOn(own, 'How do I use f-strings?');
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/formatting#formatted-literals'], json.text);
    assert.match(json.text, /^Formatted literals, or f-strings, put the value of an expression inside the text/);
  });
});

describe('a long question whose words no passage holds together', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    // Sections headed by one of the question's words: more than enough of them for a search holding any of its words,
    // which then looks no further, and more than enough candidates for the words to be asked one by one.
    for (const word of ['Disk', 'Files', 'Memory', 'Hash']) for (let index = 1; index <= 8; index++)
      await addPage(`${word.toLowerCase()}-${index}`, `${word} ${index}`, `# ${word} ${index}\n\n${word} ${index} is where the records of shelf ${index} are kept.`);
    // The entry that answers holds three of the rarer words together, and its headings none.
    await addPage('resources', 'Resources', '# Resources\n\n## work_area (integer)\n\nThis setting sets the most memory a sort or a hash table may take before writing to temporary disk files.');
  });
  after(() => own.stop());

  test('its rarest words, asked three at a time, find the passage that holds three of them', async () => {
    const { json } = await own.request('POST', '/api/v1/acme/widgets/help/chat', {
      token: 'ws_test_help',
      body: { message: 'which setting decides how much memory a sort or hash may use before it spills over to temp files on disk?' },
    });
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/resources#work_area-integer', json.text);
    assert.match(json.text, /This setting sets the most memory a sort or a hash table may take before writing to temporary disk files/);
  });
});

describe('a long question told as visitors chat', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    await addPage(
      'exports',
      'Exports',
      '# Exports\n\n## CSV exports\n\nA CSV export writes one order per line. Choose the Windows line endings when you export, or every order is followed by an empty row when shown.',
    );
    await addPage('laptops', 'Laptops', '# Laptops\n\nAssist runs on a Windows laptop or a Mac. When it opens fine, sign in with your account.');
    await addPage('orders', 'Orders', '# Orders\n\nEvery order has a number, a customer and a total.');
    await addPage('release-notes/4.6', 'Release 4.6: desktop app', '# Release 4.6: desktop app\n\n## Changes\n\nThe desktop app opens a spreadsheet export on a Mac.');
    await addPage('support', 'Support', '# Support\n\nCheck your account once a month. Twice a year, we send the last invoices.');
    await addPage('roles', 'Roles', '# Roles\n\nAn auditor may ask for access.');
    await addPage('printing', 'Printing', '# Printing\n\nThe team needs a printer to print a page.');
  });
  after(() => own.stop());

  test('is answered by the passage ranked first whose heading names it, though it holds fewer of its words', async () => {
    const { json } = await chatOn(own, 'exported my orders to csv on my windows laptop and opening it in the spreadsheet shows an empty row after every single order. on my mac it was fine. whats going on?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/exports#csv-exports', json.text);
    assert.match(json.text, /Choose the Windows line endings when you export, or every order is followed by an empty row when shown/);
  });

  test('is not answered by release notes that hold as few of its words', async () => {
    const { json } = await chatOn(own, 'so the desktop app on my mac opens every spreadsheet export fine but shows each order twice since last month. what should I check?');
    assert.deepEqual(json.sources, [], json.text);
  });

  test('is not answered by a passage that holds as few of its words, when its headings name none of them', async () => {
    const { json } = await chatOn(own, 'our team needs to print and check the account each month and ask the auditor for the invoices of the year, how?');
    assert.deepEqual(json.sources, [], json.text);
  });
});

describe('a question that also tells', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    // Pages named after the word asked about that hold the words the visitor only tells ("docs", "try", "lost"):
    // searched for with those words, they fill the candidates and leave out the page that answers.
    for (let index = 1; index <= 30; index++)
      await addPage(`badge-printer-${index}`, `Badge printer ${index}`, `# Badge printer ${index}\n\nThe docs of badge printer ${index} say what to try when a badge is lost: print the badge again, badge by badge.`);
    await addPage('badges', 'Badges', '# Badges\n\n## Badge\n\nA badge is the card that opens the doors of a site to its holder.');
    // Pages that name the word asked about in passing and hold every told word: when those count as asked, they
    // cover more of the question than the page that answers, and take the passages.
    for (let index = 1; index <= 60; index++)
      await addPage(`lost-property-${index}`, `Lost property ${index}`, `# Lost property ${index}\n\nWe tried what the docs say when lanyard ${index} is lost.`);
    await addPage('lanyards', 'Lanyards', '# Lanyards\n\n## Lanyard\n\nA lanyard is the cord a badge hangs from.');
  });
  after(() => own.stop());

  const ask = (message: string) => chatOn(own, message);

  test('what it asks is what is searched for: what it tells ("I tried the docs but got lost") does not fill the candidates', async () => {
    const { json } = await ask('What is a badge?\n\nI tried the docs already but got completely lost.');
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/badges#badge'], json.text);
    assert.match(json.text, /^A badge is the card that opens the doors of a site to its holder \[1\]\.$/);
  });

  test('what it tells does not choose among the passages found: it weighs as the conversation does', async () => {
    const { json } = await ask('What is a lanyard?\n\nI tried the docs already but got completely lost.');
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/lanyards#lanyard'], json.text);
    assert.match(json.text, /^A lanyard is the cord a badge hangs from \[1\]\.$/);
  });
});

describe('a function named by a row of a reference table', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    // The table's section is long, so the word weighs little in it; short passages that mention the function rank above it by words.
    const rows = ['roll_total', 'roll_open', 'roll_close', 'roll_merge', 'roll_split', 'roll_age', 'roll_owner', 'roll_trim', 'roll_sort']
      .map((name) => `| \`${name}\` ( \`roll\` ) → \`roll\` Works on a roll the way its name says, for every payment of the roll and every month it covers. \`${name}(r)\` → r |`);
    await addPage('roll-functions', 'Roll functions', ['# Roll functions', '', 'Table 9.1 lists the functions that work on rolls.', '', '| Function | Description |', '| --- | --- |', ...rows.slice(0, 5), '| `splay` ( `roll` ) → `setof payment` Expands a roll into a set of rows, one per payment. `splay(r)` → p1 p2 |', ...rows.slice(5)].join('\n'));
    await addPage('from-clause', 'The FROM clause', '# The FROM clause\n\n## Functions in FROM\n\nA call of `SPLAY()` in FROM is treated like any other function that returns rows.');
    await addPage('standard', 'Standard features', '# Standard features\n\nThe standard has `SPLAY()`; Acme has it as well.');
    await addPage('roll-guide', 'Roll guide', '# Roll guide\n\n## Payments of a roll\n\nTo read every payment of a roll, splay it.');
    // An option named like the function: its row gives a type, not parameters.
    await addPage('roll-settings', 'Roll settings', '# Roll settings\n\n| Setting | Description |\n| --- | --- |\n| `splay` (integer) | How many rows a splay writes at once. |');
  });
  after(() => own.stop());

  test('a bare function name is answered by the row that the name heads, not by passages that mention it', async () => {
    for (const message of ['splay', 'What does splay do?']) {
      const { json } = await chatOn(own, message);
      assert.equal(json.sources[0]?.url, 'https://acme.test/docs/roll-functions', `${message}: ${json.text}`);
      assert.match(json.text, /Expands a roll into a set of rows, one per payment/, message);
    }
  });
});

describe('a why-question about a function a reference table lists', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    await pushPage(
      own,
      'clock-functions',
      'Clock functions',
      [
        '# Clock functions',
        '',
        '| Function | Description |',
        '| --- | --- |',
        '| `clock_now` ( ) → `stamp` Current date and time (start of the current batch). `clock_now()` → `2024-01-01 10:00` |',
        '| `clock_wall` ( ) → `stamp` Current date and time, changing during the batch. |',
        '',
        '## Times within a batch',
        '',
        'Since these functions return the start time of the current batch, their values do not change during the batch.',
      ].join('\n'),
    );
  });
  after(() => own.stop());

  test('is answered by the sentence that says why, not by the row that says what the function returns', async () => {
    const { json } = await chatOn(own, 'Why does clock_now() return the same time for every statement in my batch?');
    assert.match(json.text, /^Since these functions return the start time of the current batch, their values do not change during the batch/, json.text);
  });
});

describe('a function far down a long reference table', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    // A table of 300 functions, longer than a section may be (MAX_SECTION_CHARS), as the manual's tables of functions are:
    // its section is cut into pieces. The function asked about is row 250, in the second piece.
    const rows = Array.from({ length: 300 }, (_, index) => {
      const name = index === 249 ? 'ledger_set' : `ledger_op_${index}`;
      return `| \`${name}\` ( \`ledger\`, \`path\` \`text[]\` ) → \`ledger\` ${index === 249 ? 'Returns the ledger with the entry designated by path replaced by the new value.' : `Works on a ledger the way operation ${index} does, for every entry it holds.`} |`;
    });
    await pushPage(own, 'ledger-functions', 'Ledger functions', ['# Ledger functions', '', '## Processing ledgers', '', 'Table 9.2 lists the functions that process ledgers.', '', '| Function | Description |', '| --- | --- |', ...rows].join('\n'));
    // A short passage that names the function in a sentence, as the manual's page on subscripting names `jsonb_set`.
    await pushPage(own, 'ledger-subscripts', 'Ledger subscripts', '# Ledger subscripts\n\n## Subscripting\n\nNested entries follow the same rules as the `path` argument of the `ledger_set` function.');
  });
  after(() => own.stop());

  test('is answered by its row, with its code in backticks, though the row is the table\'s 250th', async () => {
    const { json } = await chatOn(own, 'ledger_set');
    assert.match(json.text, /^`ledger_set` \( `ledger`, `path` `text\[\]` \) → `ledger` Returns the ledger with the entry designated by path replaced by the new value/, json.text);
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/ledger-functions#processing-ledgers');
  });
});

describe('a page about the question', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    // Two sections say the same words; one is the only section of its page on the subject, the other one of a guide's several.
    await addPage('a-hooks', 'Hooks', '# Hooks\n\n## Lines\n\nTo read a file line by line, use `for line in h`.');
    await addPage('guide', 'Guide', [
      '# Guide',
      '',
      '## Lines',
      '',
      'To read a file line by line, use `for line in f`.',
      '',
      '## Opening',
      '',
      'Open a file with `open()` before you read it.',
      '',
      '## Bytes',
      '',
      'Open a binary file in mode `rb` to read bytes.',
      '',
      '## Whole',
      '',
      '`f.read()` reads the whole file into one string.',
    ].join('\n'));
  });
  after(() => own.stop());

  test('of two passages that answer alike, the one on a page about the question comes first', async () => {
    const { json } = await chatOn(own, 'How do I read a file line by line?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/guide#lines', json.text);
    assert.match(json.text, /for line in f/);
  });
});

describe('a how-to answered by a passage that shows nothing of its own', () => {
  let own: TestServer;
  const chat = (message: string) => chatOn(own, message);
  const script = ['```python', 'import audit', '', 'trail = audit.Trail("ledger")', 'trail.record("amount", 10)', '```'].join('\n');
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    // As a module's page is written (Sphinx): an opening that says what it is for after an aside to some readers, then a
    // section of examples that shows how, each announced by a sentence; a later section headed by examples shows something else.
    await pushPage(own, 'audit', 'audit — Audit trails', [
      '# audit — Audit trails',
      '',
      '(If you know trails well, you might want to skip to the examples.) The `audit` module keeps track of every change made to a ledger: who made it and when.',
      '',
      'A trail can be checked at any time with a single call.',
      '',
      '## audit.Trail.export(path)',
      '',
      'Writes the trail to a file at path, one change per line.',
      '',
      '## audit.report(month)',
      '',
      'Prints the report of a month to the terminal.',
      '',
      '## Basic example',
      '',
      'The module offers many tools. Here is a short script:',
      '',
      script,
      '',
      'Checking a trail takes a single call:',
      '',
      '```python',
      'trail.check()',
      '```',
      '',
      '## Retention',
      '',
      'Trails are kept for seven years.',
      '',
      '## Examples of reports',
      '',
      'To keep a month on file instead:',
      '',
      '```python',
      'audit.save(month=3, printed=True)',
      '```',
      '',
      'The third one, for instance:',
      '',
      '```python',
      'audit.report(month=3)',
      '```',
    ].join('\n'));
  });
  after(() => own.stop());

  test('"How do I …?" is shown the example of its page, announced by its own sentence, byte for byte, and both are cited', async () => {
    const { json } = await chat('How do I keep track of who changed a ledger?');
    assert.match(json.text, /^The `audit` module keeps track of every change made to a ledger: who made it and when \[1\]\./, json.text);
    assert.ok(json.text.includes(`Here is a short script [2]:\n\n${script}`), json.text);
    assert.doesNotMatch(json.text, /audit\.report/, json.text);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/audit', 'https://acme.test/docs/audit#basic-example']);
  });

  test('what the page opens with goes first, without the aside to some readers before it, and the example that shares most with the question follows', async () => {
    const { json } = await chat('How do I check a trail?');
    assert.match(json.text, /^The `audit` module keeps track of every change made to a ledger: who made it and when\. A trail can be checked at any time with a single call \[1\]\./, json.text);
    assert.ok(json.text.includes('Checking a trail takes a single call [2]:\n\n```python\ntrail.check()\n```'), json.text);
  });

  test('an entry is not shown the examples of its page that do not call it', async () => {
    const { json } = await chat('How do I write an audit trail to a file?');
    assert.match(json.text, /^`audit\.Trail\.export\(path\)`: Writes the trail to a file at path, one change per line/, json.text);
    assert.doesNotMatch(json.text, /```/, json.text);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/audit#audittrailexportpath']);
  });

  test('an entry is shown an example of its page that calls it, before one that shares more words with the question but does not', async () => {
    const { json } = await chat('How do I print the report of a month?');
    assert.match(json.text, /^`audit\.report\(month\)`: Prints the report of a month to the terminal \[1\]\./, json.text);
    assert.ok(json.text.includes('The third one, for instance [2]:\n\n```python\naudit.report(month=3)\n```'), json.text);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/audit#auditreportmonth', 'https://acme.test/docs/audit#examples-of-reports']);
  });

  test('a question that does not ask how to do something is answered without it', async () => {
    const how = await chat('How does the audit module keep track of changes?');
    assert.match(how.json.text, /^The `audit` module keeps track of every change made to a ledger/, how.json.text);
    assert.doesNotMatch(how.json.text, /```/, how.json.text);
    const { json } = await chat('What does the audit module keep?');
    assert.match(json.text, /^The `audit` module keeps track of every change made to a ledger/, json.text);
    assert.doesNotMatch(json.text, /```/, json.text);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/audit']);
  });
});

describe('a reference page that opens with a name and its purpose', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    // A command's reference page, as man pages and the PostgreSQL manual write it: the name and what for, a synopsis,
    // then a long description that says the name among many other words, so short passages elsewhere rank above it.
    await addPage('reconcile', 'reconcile', [
      '# reconcile',
      '',
      'reconcile — match payments to their invoices',
      '',
      '## Synopsis',
      '',
      '```',
      'reconcile [option...] ledger',
      '```',
      '',
      '## Description',
      '',
      '`reconcile` pairs every payment of a ledger with the invoice it settles. Payments it cannot pair are listed for review, and nothing is booked until you confirm them.',
      '',
      ...Array.from({ length: 12 }, (_, index) => `Rule ${index + 1} of the matching weighs amounts, dates, references, payers, currencies and fees of each entry in turn.`),
      '',
      '## Options',
      '',
      '`--dry-run`: show the pairs reconcile would make.',
      '',
      '## Notes',
      '',
      'reconcile can also be run from the ledger screen.',
      '',
      '## Examples',
      '',
      'To see what would be paired in the March ledger first:',
      '',
      '```',
      'reconcile --dry-run march.ledger',
      '```',
      '',
      'To take back a month of work:',
      '',
      '```',
      'reconcile_undo march.ledger',
      '```',
    ].join('\n'));
    for (const [slug, text] of [['month-end', 'Run reconcile before you close the month.'], ['audits', 'Auditors ask when reconcile last ran.'], ['imports', 'An import is followed by reconcile.']])
      await addPage(slug, slug.replace('-', ' '), `# ${slug}\n\n## Reconcile\n\n${text}`);
  });
  after(() => own.stop());

  test('"What does … do?" is answered by the name and purpose line and then the description under it, both cited', async () => {
    const { json } = await chatOn(own, 'What does reconcile do?');
    assert.match(json.text, /^reconcile — match payments to their invoices \[1\]/, json.text);
    assert.match(json.text, /`reconcile` pairs every payment of a ledger with the invoice it settles\. Payments it cannot pair are listed for review, and nothing is booked until you confirm them \[2\]/, json.text);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/reconcile', 'https://acme.test/docs/reconcile#description']);
  });

  test('"How do I …?" answered by the description, which shows nothing, is shown the first example of the page after it', async () => {
    const { json } = await chatOn(own, 'How do I reconcile payments with their invoices?');
    assert.match(json.text, /^`reconcile` pairs every payment of a ledger with the invoice it settles\./, json.text);
    assert.ok(json.text.includes('To see what would be paired in the March ledger first [2]:\n\n```\nreconcile --dry-run march.ledger\n```'), json.text);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/reconcile#description', 'https://acme.test/docs/reconcile#examples']);
  });

  test('"How do I …?" is shown the example that does what it asks to do, before one that shares as many of its words', async () => {
    const { json } = await chatOn(own, 'How do I undo what reconcile paired in a ledger?');
    assert.match(json.text, /^`reconcile` pairs every payment of a ledger with the invoice it settles\./, json.text);
    assert.ok(json.text.includes('To take back a month of work [2]:\n\n```\nreconcile_undo march.ledger\n```'), json.text);
    assert.doesNotMatch(json.text, /--dry-run/, json.text);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/reconcile#description', 'https://acme.test/docs/reconcile#examples']);
  });
});

describe('a limit of time the visitor names ("longer than a second")', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    // As settings are documented: the limit is "the specified amount of time", never the visitor's "a second"; a page about
    // something else says all of the visitor's words.
    await pushPage(own, 'logging', 'Logging settings', [
      '# Logging settings',
      '',
      '## log_slow_runs (integer)',
      '',
      'Causes each payment run to be logged if it ran for at least the specified amount of time. If this value is specified without units, it is taken as milliseconds.',
      '',
      '## log_runs (boolean)',
      '',
      'Logs every payment run as it starts.',
    ].join('\n'));
    await pushPage(own, 'retries', 'Retries', '# Retries\n\nA payment run takes a second pass when the log shows a failed transfer.');
  });
  after(() => own.stop());

  test('is read as the amount of time a setting sets', async () => {
    const { json } = await chatOn(own, 'How do I log every payment run that takes longer than a second?');
    assert.match(json.text, /^`log_slow_runs \(integer\)`: Causes each payment run to be logged if it ran for at least the specified amount of time\./, json.text);
    assert.deepEqual(json.sources.map((source: { url: string }) => source.url), ['https://acme.test/docs/logging#log_slow_runs-integer']);
  });
});

describe('release notes that say the question\'s words', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    const addPage = (slug: string, title: string, content: string) => pushPage(own, slug, title, content);
    // The release notes and the guide that says how all hold every word of the question in one sentence; the release notes'
    // titles and headings ("Changes") say them too, the guide's do not. There are more release notes than passages quoted.
    for (const release of ['4.1', '4.2', '4.3', '4.4'])
      await addPage(`release-notes/${release}`, `Release ${release}: invoice prefix`, `# Release ${release}: invoice prefix\n\n## Changes\n\nThe invoice prefix can now be changed by owners (${release}).`);
    await addPage('settings', 'Settings', '# Settings\n\n## Numbering\n\nTo change the invoice prefix, type it under Settings › Numbering.');
    // What only a release note says, among more passages that share a word with the question than are quoted.
    await addPage('release-notes/4.5', 'Release 4.5', '# Release 4.5\n\n## Changes\n\nExports to Parquet were withdrawn: export to CSV and convert the file instead.');
    for (const thing of ['reports', 'ledgers', 'payments', 'invoices', 'customers'])
      await addPage(`${thing}-export`, `${thing} export`, `# Exporting ${thing}\n\n## Export\n\nExport ${thing} from the menu of their list.`);
  });
  after(() => own.stop());

  test('come after the guide that says how, and answer a question about the release', async () => {
    const how = await chatOn(own, 'How do I change the invoice prefix?');
    assert.equal(how.json.sources[0]?.url, 'https://acme.test/docs/settings#numbering', how.json.text);
    assert.match(how.json.text, /^To change the invoice prefix, type it under Settings › Numbering/);
    const changed = await chatOn(own, 'What changed about the invoice prefix in release 4.1?');
    assert.equal(changed.json.sources[0]?.url, 'https://acme.test/docs/release-notes/4.1#changes', changed.json.text);
  });

  test('answer what no other passage covers', async () => {
    const { json } = await chatOn(own, 'Why can I not export to Parquet?');
    assert.match(json.text, /^Exports to Parquet were withdrawn: export to CSV and convert the file instead/, json.text);
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/release-notes/4.5#changes');
  });
});

describe('a page in a folder named "changes" or "news"', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    // A feature page whose folder is named after what it is about, and another page that says the question's words in passing.
    await pushPage(own, 'changes/requests', 'Change requests', '# Change requests\n\n## Approving a change request\n\nTo approve a change request, open it and choose Approve. The one who asked is told by email.');
    await pushPage(own, 'roles', 'Roles', '# Roles\n\n## Owners\n\nOwners approve change requests and the invoices of their team.');
  });
  after(() => own.stop());

  test('is not taken for release notes: it answers the question it is about before a page that says its words in passing', async () => {
    const { json } = await chatOn(own, 'How do I approve a change request?');
    assert.equal(json.sources[0]?.url, 'https://acme.test/docs/changes/requests#approving-a-change-request', json.text);
    assert.match(json.text, /^To approve a change request, open it and choose Approve/);
  });

  test('named "changes" or "news" itself, or after a version in such a folder, it is a changelog', () => {
    for (const url of ['https://acme.test/changes.html', 'https://acme.test/docs/NEWS', 'https://acme.test/docs/changes/', 'https://acme.test/docs/changes/2.3', 'https://acme.test/news/v4.html', 'https://acme.test/whatsnew/3.11.html', 'https://acme.test/docs/release-notes/2.3'])
      assert.ok(isReleaseNotes({ title: 'Docs', url }), url);
    for (const url of ['https://acme.test/docs/changes/requests', 'https://acme.test/news/2026/office', 'https://acme.test/docs/changes/2fa-requests', 'https://acme.test/docs/newsletter'])
      assert.ok(!isReleaseNotes({ title: 'Docs', url }), url);
  });
});

describe('a lead that announces its example, and a later sentence that says the rest', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    await pushPage(own, 'reports', 'Reports', [
      '# Reports',
      '',
      "## status == 'scheduled'",
      '',
      "When a report is opened, `status` is set to the report's state. Usually this is the state shown in the list of reports:",
      '',
      '```python',
      '>>> report.status',
      "'draft'",
      '```',
      '',
      "However, if the report is sent by the scheduler, its `status` is set to the string `'scheduled'`.",
    ].join('\n'));
    // The same, with further reading in a list of terms where the later sentence was.
    await pushPage(own, 'ledgers', 'Ledgers', [
      '# Ledgers',
      '',
      "## state == 'closed'",
      '',
      "When a ledger is opened, `state` is set to the ledger's state. Usually this is the state shown in the list of ledgers:",
      '',
      '```python',
      '>>> ledger.state',
      "'open'",
      '```',
      '',
      'Closing ledgers',
      ": A guide to the state a ledger is in once closed, and what 'closed' means for its entries.",
    ].join('\n'));
  });
  after(() => own.stop());

  test('the later sentence follows the example when it says more of the question than the lead', async () => {
    const { json } = await chatOn(own, "What does status == 'scheduled' mean?");
    assert.match(json.text, /^When a report is opened, `status` is set to the report's state\./, json.text);
    assert.ok(json.text.includes("```python\n>>> report.status\n'draft'\n```\n\nHowever, if the report is sent by the scheduler, its `status` is set to the string `'scheduled'` [1]."), json.text);
  });

  test('an entry of a list of terms is further reading, not the rest of the answer', async () => {
    const { json } = await chatOn(own, "What does state == 'closed' mean?");
    assert.match(json.text, /^When a ledger is opened, `state` is set to the ledger's state\./, json.text);
    assert.ok(json.text.trimEnd().endsWith("```python\n>>> ledger.state\n'open'\n```"), json.text);
  });
});

describe('a how-question answered by what a mode does, from a passage that says later how to turn it on', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    await pushPage(own, 'strict-mode', 'Strict mode', [
      '# Strict mode',
      '',
      'Strict mode ignores the shop settings and forces strict checks on every import:',
      '',
      '- Prices must have two decimals.',
      '- `sku` values must be unique.',
      '',
      'Note that the checks of prices in strict mode can be overridden by `ACME_PRICE_CHECK`, as they can in the default mode.',
      '',
      'Strict mode is on by default for shops created after 2024.',
      '',
      'It can be enabled or disabled using the `--strict` command line option and the `ACME_STRICT` environment variable.',
    ].join('\n'));
  });
  after(() => own.stop());

  test('the sentence that names the option and the variable to use follows the lead', async () => {
    const { json } = await chatOn(own, 'How do I force strict checks on imports regardless of the shop settings?');
    assert.match(json.text, /^Strict mode ignores the shop settings and forces strict checks on every import/, json.text);
    assert.ok(json.text.includes('It can be enabled or disabled using the `--strict` command line option and the `ACME_STRICT` environment variable [1].'), json.text);
    // What overrides a part of it is not how to turn it on.
    assert.ok(!json.text.includes('ACME_PRICE_CHECK'), json.text);
  });

  test('a question that does not ask how is answered without it', async () => {
    const { json } = await chatOn(own, 'What does strict mode check on imports?');
    assert.match(json.text, /^Strict mode ignores the shop settings and forces strict checks on every import/, json.text);
    assert.ok(!json.text.includes('`--strict`'), json.text);
  });
});

describe('a sentence that tells what used to be before a release', () => {
  let own: TestServer;
  before(async () => {
    own = await startTestServer({ fixture: answerFixture(100) });
    await pushPage(own, 'refund-limits', 'Refund limits', [
      '# Refund limits',
      '',
      '## Raising the refund limit',
      '',
      'Before Acme 3, it was necessary to raise the refund limit of a shop by writing to support, as the refund limit could not be raised from the dashboard. The refund limit is raised in the dashboard, under Billing.',
    ].join('\n'));
  });
  after(() => own.stop());

  test('gives its place to the sentence that says how it is done now', async () => {
    const { json } = await chatOn(own, 'How do I raise the refund limit?');
    assert.match(json.text, /^The refund limit is raised in the dashboard, under Billing/, json.text);
  });

  test('answers a question about that release', async () => {
    const { json } = await chatOn(own, 'How was the refund limit raised before Acme 3?');
    assert.match(json.text, /^Before Acme 3, it was necessary to raise the refund limit/, json.text);
  });
});
