/**
 * The npm package as a bundler user gets it: packed with `npm pack` (so `files`, `exports` and
 * `sideEffects` are tested as published), unpacked into the node_modules of a throwaway project,
 * then imported by Node, bundled by rollup and type-checked by tsc. Needs `npm run build` first.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { rollup } from 'rollup';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terserModule from '@rollup/plugin-terser';

// Its types describe a CommonJS module; the ES build Node loads has the plugin as its default export.
const terser = terserModule as unknown as typeof terserModule.default;

const run = promisify(execFile);
const repo = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const PACKAGE = 'assist-widgets';

/** Code only Lit, marked or DOMPurify contain, to tell whether a bundle pulled them in. */
const LIT = ['litHtmlVersions', 'reactiveElementVersions'];
const MARKED = ['markedjs/marked'];
const DOMPURIFY = ['uponSanitizeElement'];

/** A headless app: search, stream a chat answer, identify. */
const HEADLESS_APP = `
import { createClient, isAssistError } from '${PACKAGE}';
const client = createClient('acme/help', { baseUrl: 'https://assist.example.com' });
client.search('reset password').then(({ hits }) => console.log(hits.length));
client.chat('How do I reset it?', { onToken: (delta, text) => console.log(text) }).catch((error) => console.log(isAssistError(error)));
`;

let project: string;
let packedFiles: string[];

before(async () => {
  assert.ok(existsSync(join(repo, 'dist/npm/src/index.js')), 'dist/npm is missing: run `npm run build` first');
  // Inside the repository (tmp/ is ignored) so that lit, marked, dompurify and typescript
  // resolve from its node_modules, as they would from the app's own.
  mkdirSync(join(repo, 'tmp'), { recursive: true });
  project = mkdtempSync(join(repo, 'tmp', 'npm-consumer-'));
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: repo });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  packedFiles = packed!.files.map((file) => file.path);
  const installed = join(project, 'node_modules', PACKAGE);
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(project, packed!.filename), '-C', installed, '--strip-components=1']);
  // Its own package.json, so the repository's (same name) is not the nearest package scope.
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
});

after(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

test('the package holds ES modules with declarations and the script-tag build, and no sources or tests', () => {
  for (const file of ['package.json', 'dist/npm/src/index.js', 'dist/npm/src/index.d.ts', 'dist/npm/src/elements.js', 'dist/npm/src/client/client.js', 'dist/npm/wire/contract.d.ts', 'dist/widget/v1/assist.js']) {
    assert.ok(packedFiles.includes(file), `${file} is in the package`);
  }
  assert.deepEqual(packedFiles.filter((file) => /^(?:src|test|wire|server)\//.test(file) || file.endsWith('.ts') && !file.endsWith('.d.ts')), []);
  // Every module of the entry has its declaration beside it.
  const modules = packedFiles.filter((file) => file.startsWith('dist/npm/') && file.endsWith('.js'));
  assert.deepEqual(modules.filter((file) => !packedFiles.includes(file.replace(/\.js$/, '.d.ts'))), []);
});

test('the UI libraries are dependencies of the package, not only of its development', () => {
  const manifest = JSON.parse(readFileSync(join(project, 'node_modules', PACKAGE, 'package.json'), 'utf8'));
  for (const name of ['lit', 'marked', 'dompurify']) assert.ok(manifest.dependencies[name], `${name} is a dependency`);
  const entry = readFileSync(join(project, 'node_modules', PACKAGE, 'dist/npm/src/components/shared/markdown.js'), 'utf8');
  // Left as imports for the app's bundler to share and dedupe, not inlined.
  assert.match(entry, /from 'marked'/);
  assert.match(entry, /from 'dompurify'/);
});

test('`import { createClient } from "assist-widgets"` resolves through the exports map and runs in Node', async () => {
  const script = join(project, 'import.mjs');
  writeFileSync(
    script,
    `import { createClient, AssistError, LOCALES } from '${PACKAGE}';
let code = null;
try { createClient('no-slash'); } catch (error) { code = error instanceof AssistError ? error.code : String(error); }
console.log(JSON.stringify({ resolved: import.meta.resolve('${PACKAGE}'), createClient: typeof createClient, code, locales: LOCALES.length }));`,
  );
  const { stdout } = await run(process.execPath, [script], { cwd: project });
  const result = JSON.parse(stdout);
  assert.equal(relative(project, new URL(result.resolved).pathname), `node_modules/${PACKAGE}/dist/npm/src/index.js`);
  assert.deepEqual({ ...result, resolved: undefined }, { resolved: undefined, createClient: 'function', code: 'invalid_key', locales: 13 });
});

async function bundle(source: string, minify = false): Promise<string> {
  const file = join(project, `app-${Math.random().toString(36).slice(2)}.js`);
  writeFileSync(file, source);
  const build = await rollup({
    input: file,
    plugins: [nodeResolve({ browser: true }), ...(minify ? [terser({ format: { comments: false } })] : [])],
    onwarn: () => undefined,
  });
  try {
    const { output } = await build.generate({ format: 'es' });
    return output[0].code;
  } finally {
    await build.close();
  }
}

function containsAny(code: string, markers: string[]): boolean {
  return markers.some((marker) => code.includes(marker));
}

test('a headless app that bundles only createClient ships no Lit, no marked and no DOMPurify', async () => {
  const code = await bundle(HEADLESS_APP);
  assert.match(code, /\/api\/v1/, 'the client itself is in the bundle');
  assert.equal(containsAny(code, LIT), false, 'no Lit');
  assert.equal(containsAny(code, MARKED), false, 'no marked');
  assert.equal(containsAny(code, DOMPURIFY), false, 'no DOMPurify');
  const minified = await bundle(HEADLESS_APP, true);
  assert.ok(minified.length < 30_000, `the minified headless bundle is ${minified.length} bytes`);
});

test('an app that uses the markdown renderer gets marked and DOMPurify with it', async () => {
  const code = await bundle(`import { renderMarkdown } from '${PACKAGE}';\ndocument.body.innerHTML = renderMarkdown('**hi**');\n`);
  assert.equal(containsAny(code, MARKED), true);
  assert.equal(containsAny(code, DOMPURIFY), true);
  assert.equal(containsAny(code, LIT), false, 'markdown alone needs no Lit');
});

/** The custom elements the package defines, read from its modules. */
function registeredTags(): string[] {
  const tags = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) for (const match of readFileSync(path, 'utf8').matchAll(REGISTRATION)) tags.add(match[1]!);
    }
  };
  walk(join(project, 'node_modules', PACKAGE, 'dist/npm'));
  return [...tags].sort();
}

const REGISTRATION = /customElements\.define\(\s*['"]([a-z][\w-]*-[\w-]*)['"]/g;
const registrationsIn = (code: string): string[] => [...new Set([...code.matchAll(REGISTRATION)].map((match) => match[1]!))].sort();

test('the elements entry defines every custom element, also in a bundle (it is listed in sideEffects)', async () => {
  const tags = registeredTags();
  assert.ok(tags.length > 0, 'the package defines custom elements');
  assert.deepEqual(registrationsIn(await bundle(`import '${PACKAGE}/elements';\n`)), tags);
});

test('importing an element class from the main entry keeps its definition in the bundle', async () => {
  const code = await bundle(`import { AssistChat } from '${PACKAGE}';\nconsole.log(AssistChat.name);\n`);
  assert.deepEqual(registrationsIn(code), ['assist-chat']);
  assert.equal(containsAny(code, LIT), true);
});

test('the declarations type-check a consumer under moduleResolution "bundler"', async () => {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [], skipLibCheck: false },
      files: ['consumer.ts'],
    }),
  );
  writeFileSync(
    join(project, 'consumer.ts'),
    `import { createClient, AssistError, type AssistChat, type AssistClient, type Hit, type ChatReply, type AssistErrorCode } from '${PACKAGE}';
import '${PACKAGE}/elements';

const client: AssistClient = createClient('acme/help', { baseUrl: 'https://assist.example.com', context: false });
const hits: Hit[] = (await client.search('reset', { limit: 5 })).hits;
const reply: ChatReply = await client.chat('hi', { onToken: (delta: string, text: string) => void [delta, text] });
const code: AssistErrorCode | undefined = new AssistError('network', 'offline').code;
const chatElement: AssistChat = document.createElement('assist-chat');
export const used = [hits, reply.sources, code, client.sessionId, chatElement];

// The types are real: each of these is an error.
// @ts-expect-error the query is a string
await client.search(42);
// @ts-expect-error there is no such method
client.searchEverything('x');
// @ts-expect-error a reply has no such field
export const missing = reply.answerText;
`,
  );
  const tsc = join(repo, 'node_modules/typescript/bin/tsc');
  const result = await run(process.execPath, [tsc, '-p', project]).then(
    () => ({ ok: true, output: '' }),
    (error: { stdout?: string }) => ({ ok: false, output: error.stdout ?? String(error) }),
  );
  assert.deepEqual(result, { ok: true, output: '' });
});
