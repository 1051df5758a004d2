/**
 * Release notes and changelogs: pages about what changed, which mention most features of a
 * product and answer few questions about them. The search ranks them lower, and answers
 * quote them only for a question about versions or changes (answer/embedded.ts).
 */

/** A question about versions or what changed between them. */
export const CHANGES_ASKED = /\b(?:releases?|released|versions?|changelog|what['’]?s new|new in|deprecated|(?:changed|added|removed) in|upgrad(?:e|ed|ing))\b|\b\d+\.\d+\b/i;

/**
 * Release notes and changelogs ("Release 15.5", "What's New In Python 3.11"), by title or
 * address: a page in a folder of them (`/release-notes/2.3`, `/whatsnew/3.11.html`), a page
 * named `changes` or `news` (`/changes.html`, `/NEWS`) or a version's in a folder so named
 * (`/changes/2.3`); not another page in such a folder, which may be about anything
 * (`/docs/changes/requests` on approving change requests, `/news/2026/office`).
 */
export function isReleaseNotes(hit: { title: string; url: string }): boolean {
  const path = new URL(hit.url, 'http://x').pathname;
  return (
    /\b(?:release notes?|release \d[\w.]*|changelog|change log|what[’']?s new)\b/i.test(hit.title) ||
    /(?:^|\/)(?:release[-_]?notes?|releases?[-_]\d[\w.-]*|changelog|whatsnew)(?:[/.]|$)/i.test(path) ||
    /(?:^|\/)(?:changes|news)(?:\.\w+|\/v?\d+(?:\.\d+)*(?:\.html?)?)?\/?$/i.test(path)
  );
}
