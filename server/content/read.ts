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
