/**
 * Release notes and changelogs: pages about what changed, which mention most features of a
 * product and answer few questions about them. The search ranks them lower, and answers
 * quote them only for a question about versions or changes (answer/embedded.ts).
 */

/** A question about versions or what changed between them. */
export const CHANGES_ASKED = /\b(?:releases?|released|versions?|changelog|what['’]?s new|new in|deprecated|(?:changed|added|removed) in|upgrad(?:e|ed|ing))\b|\b\d+\.\d+\b/i;

/**
 * Release notes and changelogs ("Release 15.5", "What's New In Python 3.11"), by title or
 * address: a page in a folder of them (`/release-notes/2.3`, `/whatsnew/3.11.html`), or a page
 * named `changes` or `news` (`/changes.html`, `/NEWS`); not a page in a folder so named, which
 * may be about anything (`/docs/changes/requests` on approving change requests, `/news/2026/office`).
 */
export function isReleaseNotes(hit: { title: string; url: string }): boolean {
  const path = new URL(hit.url, 'http://x').pathname;
  return (
    /\b(?:release notes?|release \d[\w.]*|changelog|change log|what[’']?s new)\b/i.test(hit.title) ||
    /(?:^|\/)(?:release[-_]?notes?|releases?[-_]\d[\w.-]*|changelog|whatsnew)(?:[/.]|$)/i.test(path) ||
    /(?:^|\/)(?:changes|news)(?:\.\w+)?\/?$/i.test(path)
  );
}
