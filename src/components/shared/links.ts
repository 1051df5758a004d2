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
