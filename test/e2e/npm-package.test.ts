/**
 * The two packages as their users get them, packed with `npm pack` (so `files`, `exports` and
 * `sideEffects` are tested as published). The widget package `assist-widgets` is unpacked into
 * the node_modules of a throwaway project, then imported by Node, bundled by rollup and
 * type-checked by tsc; both packages are also installed with npm into empty folders, to count
 * what each brings. Needs `npm run build` first.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
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

test('the package holds ES modules with declarations, the framework types, the manifest and the script-tag build, and no server, sources or tests', () => {
  for (const file of ['package.json', 'dist/npm/src/index.js', 'dist/npm/src/index.d.ts', 'dist/npm/src/elements.js', 'dist/npm/src/client/client.js', 'dist/npm/wire/contract.d.ts', 'dist/widget/v1/assist.js', 'custom-elements.json', 'types/react.d.ts', 'types/vue.d.ts', 'types/attributes.d.ts']) {
    assert.ok(packedFiles.includes(file), `${file} is in the package`);
  }
  assert.deepEqual(packedFiles.filter((file) => /^(?:src|test|wire|server|demo|dist\/node)\//.test(file) || file.endsWith('.ts') && !file.endsWith('.d.ts')), []);
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

/** The packages only the server needs. */
const SERVER_PACKAGES = ['@electric-sql/pglite', 'pg', 'htmlparser2', 'zod', 'eventsource-parser'];

/** Installs a packed tarball with npm into an empty folder (from npm's cache when it has the dependencies); returns the packages it brought. */
async function installIntoEmptyFolder(tarball: string): Promise<{ folder: string; packages: string[] }> {
  const folder = mkdtempSync(join(repo, 'tmp', 'npm-install-'));
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'empty', private: true }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: folder });
  const packages: string[] = [];
  for (const entry of readdirSync(join(folder, 'node_modules'))) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) for (const scoped of readdirSync(join(folder, 'node_modules', entry))) packages.push(`${entry}/${scoped}`);
    else packages.push(entry);
  }
  return { folder, packages: packages.sort() };
}

async function pack(directory: string, destination: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination, directory], { cwd: repo });
  return join(destination, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
}

test('`npm install` of the widget package brings what the browser runs (Lit, marked, DOMPurify) and no server dependency', async () => {
  const tarball = await pack(repo, project);
  const { folder, packages } = await installIntoEmptyFolder(tarball);
  try {
    assert.deepEqual(packages.filter((name) => SERVER_PACKAGES.includes(name)), []);
    for (const name of ['assist-widgets', 'lit', 'marked', 'dompurify']) assert.ok(packages.includes(name), `${name} is installed`);
    // Lit's own parts and DOMPurify's types; 30 packages came when the server was in it.
    assert.ok(packages.length <= 10, `${packages.length} packages: ${packages.join(', ')}`);
    const manifest = JSON.parse(readFileSync(join(folder, 'node_modules/assist-widgets/package.json'), 'utf8'));
    assert.deepEqual(Object.keys(manifest.dependencies).sort(), ['dompurify', 'lit', 'marked']);
    assert.equal(manifest.bin, undefined, 'the server command comes with assist-server');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('`npm install` of the server package brings its database and parser, and its assist-server command serves the API, the script-tag build and the demo (whose widgets take any localhost port)', async () => {
  const tarball = await pack(join(repo, 'packages/server'), project);
  const { folder, packages } = await installIntoEmptyFolder(tarball);
  const server = spawn(join(folder, 'node_modules/.bin/assist-server'), ['start', '--port', '0', '--data', join(folder, 'data')], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    for (const name of ['assist-server', ...SERVER_PACKAGES]) assert.ok(packages.includes(name), `${name} is installed`);
    assert.deepEqual(packages.filter((name) => ['lit', 'marked', 'dompurify', 'assist-widgets'].includes(name)), [], 'the widgets come built, as the script-tag files');
    const manifest = JSON.parse(readFileSync(join(folder, 'node_modules/assist-server/package.json'), 'utf8'));
    assert.equal(manifest.version, JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version, 'both packages have one version');
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      server.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      server.once('exit', (code) => reject(new Error(`assist-server exited with ${code}`)));
    });
    assert.deepEqual(await (await fetch(`${url}/healthz`)).json(), { status: 'ok', database: 'pglite' });
    // The API document is generated from the routes' schemas when first asked for.
    const openapi = await (await fetch(`${url}/api/v1/openapi.json`)).json();
    assert.ok(openapi.components.schemas.ChatRequest && openapi.paths['/api/v1/{organisation}/widgets/{widget}/chat'].post.requestBody);
    const script = await fetch(`${url}/widget/v1/assist.js`);
    assert.equal(script.status, 200);
    assert.equal(await script.text(), readFileSync(join(repo, 'dist/widget/v1/assist.js'), 'utf8'));
    // The demo's widgets list `localhost:*`: an app on a dev server's port can use them.
    const fromViteDevServer = await fetch(`${url}/api/v1/demo/widgets/search/config`, { headers: { Origin: 'http://localhost:5173' } });
    assert.equal(fromViteDevServer.status, 200);
    const demo = await fetch(`${url}/demo/`);
    assert.equal(demo.status, 200);
    assert.match(await demo.text(), /assist\.js/);
  } finally {
    server.kill();
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(folder, { recursive: true, force: true });
  }
});

/** The attribute names of an element's table in docs/reference.md. */
function documentedAttributes(tag: string): string[] {
  const section = readFileSync(join(repo, 'docs/reference.md'), 'utf8').split(`### \`<${tag}>\``)[1]!.split(/\n##/)[0]!;
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

test('a build of the server keeps nothing of an earlier one: a migration since removed is neither run by the built server nor shipped in its package', async () => {
  const migrations = join(repo, 'dist/node/server/store/migrations');
  const removed = join(migrations, '099_removed_since.sql');
  writeFileSync(removed, 'CREATE TABLE removed_since (id int);');
  await run('npm', ['run', '--silent', 'build:server'], { cwd: repo });
  assert.equal(existsSync(removed), false);
  assert.deepEqual(readdirSync(migrations).sort(), readdirSync(join(repo, 'server/store/migrations')).sort());
});

test('custom-elements.json, named in package.json, describes both elements: attributes as documented, events, slots, parts and CSS properties', () => {
  const installed = join(project, 'node_modules', PACKAGE);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  assert.equal(manifest.customElements, 'custom-elements.json');
  const elements = JSON.parse(readFileSync(join(installed, manifest.customElements), 'utf8'));
  const declarations = new Map<string, any>(elements.modules.flatMap((module: any) => module.declarations.map((declaration: any) => [declaration.tagName, { ...declaration, path: module.path }])));
  assert.deepEqual([...declarations.keys()].sort(), ['assist-chat', 'assist-search']);
  for (const [tag, declaration] of declarations) {
    assert.ok(existsSync(join(installed, declaration.path)), `${declaration.path} is in the package`);
    assert.deepEqual(declaration.attributes.map((attribute: { name: string }) => attribute.name).sort(), documentedAttributes(tag).sort(), `${tag}: the reference's attributes`);
    assert.ok(declaration.events.every((event: { name: string; description: string }) => event.name.startsWith('assist-') && event.description), `${tag}: events are described`);
    assert.ok(declaration.cssParts.length > 5 && declaration.cssProperties.some((property: { name: string }) => property.name === '--assist-accent-light'));
    assert.ok(!declaration.members.some((member: { name: string }) => member.name === 'summaryMarkdown'), 'private members stay out');
  }
  assert.deepEqual(declarations.get('assist-chat').slots.map((slot: { name: string }) => slot.name), ['launcher']);
  assert.ok(declarations.get('assist-chat').events.some((event: { name: string }) => event.name === 'assist-message'));
  assert.ok(declarations.get('assist-search').events.some((event: { name: string }) => event.name === 'assist-select'));
});
