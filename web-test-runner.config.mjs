import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner';

const require = createRequire(import.meta.url);
const mswWorker = readFileSync(require.resolve('msw/mockServiceWorker.js'), 'utf8');

/** Component and client tests in the machine's Chromium, with MSW standing in for the server. */
export default {
  files: ['test/core/**/*.test.ts', 'test/client/**/*.test.ts', 'test/components/**/*.test.ts'],
  nodeResolve: { browser: true },
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })],
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
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      },
    }),
  ],
};
