/**
 * `assist-analytics.js`: reports clicks on server-rendered result lists into the same
 * analytics session as the SDK's searches (spec 4.5). Tiny, no Lit, no cookies.
 *
 * @example
 * <script src="https://assist.example/widget/v1/assist-analytics.js"
 *         data-widget="acme/find" data-session="s_…"></script>
 * <a href="/docs/install" data-sv-click data-sv-rank="1" data-sv-source="result">Install</a>
 *
 * @example
 * AssistAnalytics.init({ key: 'acme/find', sessionId }).trackClick({ url, rank: 1, source: 'result' });
 */
import { parseWidgetKey, type ClickProps } from '../../wire/contract.js';
import { adoptSessionId, getSessionId } from '../core/session.js';

export interface BeaconOptions {
  /** The widget key, `{organisation}/{widget}`. */
  key: string;
  /** Analytics session id, e.g. from a search response; default: the tab's session. */
  sessionId?: string;
  /** API origin; default: the origin this script was loaded from. */
  base?: string;
}

export interface Beacon {
  trackClick(props: ClickProps & { queryId?: string }): void;
}

const script = document.currentScript as HTMLScriptElement | null;
const scriptOrigin = script?.src ? new URL(script.src).origin : location.origin;

function warn(message: string): void {
  console.warn(`[assist] ${message}`);
}

/** Sends without delaying navigation: a `text/plain` beacon needs no preflight; `fetch` with keepalive otherwise. */
function send(endpoint: string, body: string): void {
  try {
    if (navigator.sendBeacon?.(endpoint, new Blob([body], { type: 'text/plain' }))) return;
  } catch {
    // fall through to fetch
  }
  fetch(endpoint, { method: 'POST', body, keepalive: true, mode: 'cors', credentials: 'omit', headers: { 'Content-Type': 'text/plain' } }).catch(
    () => {},
  );
}

function init(options: BeaconOptions): Beacon {
  const widget = parseWidgetKey(options?.key);
  if (!widget) {
    warn(`"${options?.key}" is not a widget key; use "{organisation}/{widget}". Clicks will not be reported.`);
    return { trackClick() {} };
  }
  if (options.sessionId) adoptSessionId(options.sessionId);
  const base = (options.base || scriptOrigin).replace(/\/+$/, '');
  const endpoint = `${base}/api/v1/${encodeURIComponent(widget.organisation)}/widgets/${encodeURIComponent(widget.widget)}/events`;
  return {
    trackClick({ url, rank, source, queryId }) {
      const props: ClickProps = { url: String(url) };
      if (typeof rank === 'number' && Number.isFinite(rank)) props.rank = rank;
      if (source) props.source = String(source);
      const event = { name: 'click' as const, props, ts: new Date().toISOString(), ...(queryId ? { queryId } : {}) };
      send(endpoint, JSON.stringify({ sessionId: options.sessionId || getSessionId(), events: [event] }));
    },
  };
}

/** Tracks clicks (and middle clicks) on every `a[data-sv-click]`, including links added later. */
function trackMarkedLinks(beacon: Beacon): void {
  const onClick = (event: MouseEvent) => {
    if (event.type === 'auxclick' && event.button !== 1) return;
    const link = (event.target as Element | null)?.closest?.('a[data-sv-click]') as HTMLAnchorElement | null;
    if (!link) return;
    const rank = Number(link.dataset.svRank);
    beacon.trackClick({
      url: link.dataset.svUrl || link.href,
      rank: link.dataset.svRank && Number.isFinite(rank) ? rank : undefined,
      source: link.dataset.svSource || undefined,
      queryId: link.dataset.svQuery || undefined,
    });
  };
  document.addEventListener('click', onClick, true);
  document.addEventListener('auxclick', onClick, true);
}

const api = { init };
const global = globalThis as unknown as { AssistAnalytics?: typeof api };
if (!global.AssistAnalytics) {
  global.AssistAnalytics = api;
  if (script?.dataset.widget !== undefined || script?.hasAttribute('data-session')) {
    trackMarkedLinks(init({ key: script.dataset.widget ?? '', sessionId: script.dataset.session, base: script.dataset.base }));
  }
}
