/**
 * `assist-analytics.js`: reports clicks on server-rendered result lists into the same
 * analytics session as the SDK's searches (spec 4.5). Tiny (under 2 KB gzip), no Lit, no
 * cookies, and it never holds up the navigation a click starts.
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
  /** Analytics session id, e.g. from a search response; default: the tab's session (shared with `assist.js`). */
  sessionId?: string;
  /** API origin; default: the origin this script was loaded from. */
  base?: string;
}

/** What a click reports; `queryId` (from the search response) ties it to one search. */
export interface TrackedClick {
  url: string;
  rank?: number | string;
  source?: string;
  queryId?: string;
}

export interface Beacon {
  /**
   * Reports one click, fire-and-forget.
   * @example beacon.trackClick({ url: 'https://acme.test/docs/install', rank: 1, source: 'result' });
   */
  trackClick(click: TrackedClick): void;
}

/** The global `AssistAnalytics`. */
export interface AssistAnalyticsGlobal {
  /**
   * A beacon for one widget.
   * @example AssistAnalytics.init({ key: 'acme/find', sessionId: 's_…' }).trackClick({ url, rank: 1 });
   */
  init(options: BeaconOptions): Beacon;
}

// Read now: document.currentScript is only set while this script first runs.
const script = document.currentScript as HTMLScriptElement | null;
const scriptOrigin = script?.src ? new URL(script.src).origin : location.origin;

function warn(message: string): void {
  console.warn(`[assist] ${message}`);
}

/** The rank the server accepts (a whole number 0–10000), or nothing, so a bad rank never loses the click. */
function toRank(value: unknown): number | undefined {
  const rank = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof rank === 'number' && Number.isInteger(rank) && rank >= 0 && rank <= 10_000 ? rank : undefined;
}

/** Sends without delaying navigation: a `text/plain` beacon needs no preflight; `fetch` with keepalive otherwise. */
function send(endpoint: string, body: string): void {
  try {
    if (navigator.sendBeacon?.(endpoint, new Blob([body], { type: 'text/plain' }))) return;
  } catch {
    // fall through to fetch
  }
  fetch(endpoint, { method: 'POST', body, keepalive: true, credentials: 'omit', headers: { 'Content-Type': 'text/plain' } }).catch(() => {});
}

function init(options: BeaconOptions): Beacon {
  const widget = parseWidgetKey(options?.key);
  if (!widget) {
    warn(`assist-analytics.js: ${JSON.stringify(options?.key)} is not a widget key; use "{organisation}/{widget}", like "acme/find". Clicks will not be reported.`);
    return { trackClick() {} };
  }
  // A session id from a search response becomes the tab's session, so assist.js on the same tab joins it too.
  if (options.sessionId) adoptSessionId(options.sessionId);
  const base = (options.base || scriptOrigin).replace(/\/+$/, '');
  const endpoint = `${base}/api/v1/${widget.organisation}/widgets/${widget.widget}/events`;
  return {
    trackClick({ url, rank, source, queryId } = {} as TrackedClick) {
      if (!url) return warn('trackClick() needs a url.');
      const props: ClickProps = { url: String(url) };
      const validRank = toRank(rank);
      if (validRank !== undefined) props.rank = validRank;
      if (source) props.source = String(source);
      const event = { name: 'click', props, ts: new Date().toISOString(), ...(queryId ? { queryId: String(queryId) } : {}) };
      send(endpoint, JSON.stringify({ sessionId: options.sessionId || getSessionId(), events: [event] }));
    },
  };
}

/**
 * Tracks every `a[data-sv-click]`, including links added later: one capturing listener on the
 * document sees clicks (Enter on a focused link fires one too) and middle clicks (`auxclick`),
 * also inside open shadow roots, without ever calling preventDefault.
 */
function trackMarkedLinks(beacon: Beacon): void {
  const onClick = (event: MouseEvent) => {
    if (event.type === 'auxclick' && event.button !== 1) return;
    const link = event
      .composedPath()
      .find((node): node is HTMLAnchorElement => node instanceof Element && node.matches('a[data-sv-click]'));
    if (!link) return;
    beacon.trackClick({
      url: link.dataset.svUrl || link.href,
      rank: link.dataset.svRank,
      source: link.dataset.svSource,
      queryId: link.dataset.svQuery,
    });
  };
  document.addEventListener('click', onClick, true);
  document.addEventListener('auxclick', onClick, true);
}

const api: AssistAnalyticsGlobal = { init };
const global = globalThis as unknown as { AssistAnalytics?: AssistAnalyticsGlobal };
// A second copy of the tag must not track every click twice.
if (!global.AssistAnalytics) {
  global.AssistAnalytics = api;
  // Without any data- attribute the page uses the manual form; with some but no valid
  // data-widget, init() says what is wrong.
  if (script && ['data-widget', 'data-session', 'data-base'].some((name) => script.hasAttribute(name))) {
    trackMarkedLinks(init({ key: script.dataset.widget!, sessionId: script.dataset.session, base: script.dataset.base }));
  }
}
