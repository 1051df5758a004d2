/**
 * The size check CI runs after the build (`npm run test:size`): a script a visitor downloads
 * over its gzip limit fails the build, and a split build is judged by its first file with the
 * chunks it loads later reported beside it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const CHECK = join(import.meta.dirname, '..', '..', 'scripts', 'check-size.mjs');
const folders: string[] = [];
after(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A widget folder with the given files; a number is code of about that many bytes once gzipped. */
function widgetFolder(files: Record<string, string | number>): string {
  const folder = mkdtempSync(join(tmpdir(), 'assist-size-'));
  folders.push(folder);
  for (const [name, content] of Object.entries(files)) {
    const text = typeof content === 'number' ? `var x=${JSON.stringify(randomBytes(content).toString('base64'))};` : content;
    writeFileSync(join(folder, name), text);
  }
  return folder;
}

function check(folder: string) {
  const result = spawnSync(process.execPath, [CHECK, folder], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

test('small scripts pass and their gzip sizes are reported against the goals', () => {
  const { status, output } = check(widgetFolder({ 'assist.js': 30_000, 'assist-analytics.js': 'navigator.sendBeacon("/e")' }));
  assert.equal(status, 0, output);
  assert.match(output, /assist\.js \(the script tag: SDK and markdown; widgets and languages load from their own files\): \d+\.\d KB gzip .*within the goal of 40\.0 KB/);
  assert.match(output, /assist-analytics\.js .*within the goal of 2\.0 KB/);
});

test('assist.js over 40 KB gzip fails the build and says by how much', () => {
  const { status, output } = check(widgetFolder({ 'assist.js': 48_000, 'assist-analytics.js': 'x()' }));
  assert.equal(status, 1, output);
  assert.match(output, /assist\.js .*OVER the CI limit of 40\.0 KB by \d+\.\d KB/);
});

test('the analytics beacon over 2 KB gzip fails the build', () => {
  const { status, output } = check(widgetFolder({ 'assist.js': 'x()', 'assist-analytics.js': 2_500 }));
  assert.equal(status, 1, output);
  assert.match(output, /assist-analytics\.js .*OVER the CI limit of 2\.0 KB/);
});

test('a split build is judged by its first file, with the chunks it loads later totalled', () => {
  const { status, output } = check(
    widgetFolder({
      'assist.js': 'import("./chat-a1b2.js")',
      'chat-a1b2.js': 'import("./shared-c3d4.js");' + 'y'.repeat(10),
      'shared-c3d4.js': 50_000,
      'assist-analytics.js': 'x()',
    }),
  );
  // 50 KB of chunks loaded on intent do not fail the build: the first file is tiny.
  assert.equal(status, 0, output);
  assert.match(output, /loaded later: chat-a1b2\.js [\d.]+ KB, shared-c3d4\.js [\d.]+ KB/);
  assert.match(output, /total with every chunk: (4[89]|5\d)\.\d KB gzip/);
});

test('a missing entry is an error, not a pass', () => {
  const { status, output } = check(widgetFolder({ 'assist.js': 'x()' }));
  assert.equal(status, 2, output);
  assert.match(output, /assist-analytics\.js: missing/);
});
