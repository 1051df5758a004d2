/**
 * Reading a page write: the content as stored (markdown; HTML read by content/html.ts),
 * and what the content says of the page (title, first heading, language). Used by the
 * pages API, fixtures and `ingest` alike.
 */
import type { PageFormat } from '../../wire/contract.js';
import { readHtml } from './html.js';
import { markdownTitle } from './markdown.js';
import { decodeTitleEntities, withoutSiteName } from './title.js';

export interface PageReading {
  /** The content as stored: markdown and text as given, HTML as markdown. */
  content: string;
  /** The title the content gives: an HTML page's `<title>` without the site name, else its first heading; a markdown page's `# ` heading. */
  title?: string;
  /** The plain text of the content's first heading (HTML) or `# ` heading (markdown). */
  heading?: string;
  /** An HTML page's `<html lang>`. */
  language?: string;
  /** An HTML page's `<title>` as written (entities decoded), site name included. */
  documentTitle?: string;
}

/**
 * The version of how an HTML page is read (this file, html.ts, html-events.ts, title.ts): raise it
 * with any change to what a page write of HTML is stored as. Pages keep what was read from their
 * HTML, not the HTML, so `assist-server ingest` marks each HTML page it writes with the version it
 * ships with, and writes again, to be read anew, every HTML page marked otherwise. The command and
 * the server it writes to are one release (`assist-server`); a server of another release reads
 * the pages as that release does.
 */
export const HTML_READER_VERSION = 1;

export function readPage(format: PageFormat, content: string): PageReading {
  if (format === 'html') {
    const html = readHtml(content);
    const title = html.title ? withoutSiteName(html.title, html.heading) : html.heading;
    return {
      content: normaliseText(html.markdown),
      ...(title ? { title } : {}),
      ...(html.heading ? { heading: html.heading } : {}),
      ...(html.language ? { language: html.language } : {}),
      ...(html.title ? { documentTitle: html.title } : {}),
    };
  }
  const text = normaliseText(content);
  const title = format === 'markdown' ? markdownTitle(text) : undefined;
  return { content: text, ...(title ? { title, heading: title } : {}) };
}

/** One kind of line break, and no NUL (PostgreSQL text cannot hold it). */
function normaliseText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\u0000/g, '');
}

/** What a page write says of its title; `title` is the write body's, `url` the last resort. */
export interface TitleSources {
  format: PageFormat;
  title?: string;
  url?: string;
}

/**
 * The title a page is stored with: the one written (for HTML, entities decoded and the site
 * name around the page's heading taken off), else the one its content gives, else its url.
 */
export function pageTitle(write: TitleSources, reading: Pick<PageReading, 'title' | 'heading'>): string {
  if (write.title) {
    const written = write.format === 'html' ? withoutSiteName(decodeTitleEntities(write.title), reading.heading) : write.title;
    if (written.trim()) return written.trim();
  }
  return reading.title ?? write.url ?? 'Untitled';
}
