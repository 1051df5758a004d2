/** Links the widgets render from server data: page URLs, sources, fallback results. */
import { nothing } from 'lit';

/**
 * The URL when it is an http(s) address, else `nothing` (Lit then leaves `href` out): a page
 * URL is never a script to run, whatever was stored.
 *
 * @example html`<a href=${webUrl(hit.url)}>${hit.title}</a>`
 */
export function webUrl(url: string): string | typeof nothing {
  return isWebUrl(url) ? url : nothing;
}

export function isWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/**
 * The name of a link to a page or one of its sections, telling apart two sections of one page
 * ("Troubleshooting ignition › Error E42").
 */
export function sourceName(source: { url: string; title: string; section?: string }): string {
  const title = source.title || source.url;
  return source.section ? `${title} › ${source.section}` : title;
}
