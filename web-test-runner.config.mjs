import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner';

const require = createRequire(import.meta.url);
/**
 * MSW's service worker, except that it never unregisters itself. It does so when the last page
 * it controls closes, and test files run in parallel pages of one origin: a file ending while
 * the next one is still starting would take the next one's mocks with it (every request a 404).
 */
const UNREGISTER = 'self.registration.unregister()';
const mswWorkerSource = readFileSync(require.resolve('msw/mockServiceWorker.js'), 'utf8');
if (!mswWorkerSource.includes(UNREGISTER)) throw new Error(`msw/mockServiceWorker.js no longer calls ${UNREGISTER}: review the patch below`);
/**
 * And it takes control of a page that asks it to: one opened while another page was installing
 * the worker, too early for the worker's claim of every page once active (test/client/support.ts).
 */
const CLAIM = `
self.addEventListener('message', (event) => {
  if (event.data === 'assist-tests:claim') event.waitUntil(self.clients.claim())
})
`;
const mswWorker = mswWorkerSource.replace(UNREGISTER, 'void 0 /* kept registered for the other test pages */') + CLAIM;

/**
 * Forced colours (Windows high contrast) for the accessibility tests: the runner's emulateMedia
 * leaves that feature out under Chrome, so it is set through the page's own media emulation.
 */
function forcedColorsCommand() {
  const sessions = new WeakMap();
  return {
    name: 'emulate-forced-colors-command',
    async executeCommand({ command, payload, session }) {
      if (command !== 'emulate-forced-colors') return undefined;
      const page = session.browser.getPage(session.id);
      if (!sessions.has(page)) sessions.set(page, await page.createCDPSession());
      await sessions.get(page).send('Emulation.setEmulatedMedia', {
        features: [
          { name: 'forced-colors', value: payload.forcedColors ?? 'none' },
          { name: 'prefers-color-scheme', value: payload.colorScheme ?? 'light' },
        ],
      });
      return true;
    },
  };
}

/**
 * Brings the test's page to the front: a page behind another gets no frames, and what the browser
 * decides in a frame (which blocks `content-visibility: auto` skips) is never decided there.
 */
function bringToFrontCommand() {
  return {
    name: 'bring-to-front-command',
    async executeCommand({ command, session }) {
      if (command !== 'bring-to-front') return undefined;
      await session.browser.getPage(session.id).bringToFront();
      return true;
    },
  };
}

/**
 * Chromium's whole accessibility tree, containers (lists, list items, dialogs) included, which the
 * runner's own snapshot leaves out as uninteresting.
 */
function accessibilityTreeCommand() {
  return {
    name: 'accessibility-tree-command',
    async executeCommand({ command, session }) {
      if (command !== 'accessibility-tree') return undefined;
      return session.browser.getPage(session.id).accessibility.snapshot({ interestingOnly: false });
    },
  };
}

/** Component and client tests in the machine's Chromium, with MSW standing in for the server. */
export default {
  files: ['test/core/**/*.test.ts', 'test/client/**/*.test.ts', 'test/components/**/*.test.ts'],
  nodeResolve: { browser: true },
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  // The accessibility files run dozens of axe passes; a loaded CI machine needs more than the default two minutes.
  testsFinishTimeout: 300_000,
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' }), forcedColorsCommand(), accessibilityTreeCommand(), bringToFrontCommand()],
  middleware: [
    function serveMswWorker(context, next) {
      if (context.path === '/mockServiceWorker.js') {
        context.type = 'application/javascript';
        context.body = mswWorker;
        return;
      }
      return next();
    },
  ],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
        headless: true,
        // Accessibility on, as when a screen reader runs: the tree the accessibility tests read is the one it gets.
        // Without it Chromium builds the tree only for what is laid out, and leaves out the text of an answer's
        // blocks skipped by `content-visibility: auto` until they are, which a screen reader never meets.
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--force-renderer-accessibility'],
      },
    }),
  ],
};
