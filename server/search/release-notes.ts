/**
 * Release notes and changelogs: pages about what changed, which mention most features of a
 * product and answer few questions about them. The search ranks them lower, and answers
 * quote them only for a question about versions or changes (answer/embedded.ts).
 */

/** A question about versions or what changed between them. */
export const CHANGES_ASKED = /\b(?:releases?|released|versions?|changelog|what['’]?s new|new in|deprecated|(?:changed|added|removed) in|upgrad(?:e|ed|ing))\b|\b\d+\.\d+\b/i;

/** Release notes and changelogs ("Release 15.5", "What's New In Python 3.11"), by title or address. */
export function isReleaseNotes(hit: { title: string; url: string }): boolean {
  return /\b(?:release notes?|release \d[\w.]*|changelog|change log|what[’']?s new)\b/i.test(hit.title) || /(?:^|\/)(?:release[-_]?notes?|releases?[-_]\d[\w.-]*|changelog|changes|whatsnew|news)(?:[/.]|$)/i.test(new URL(hit.url, 'http://x').pathname);
}
