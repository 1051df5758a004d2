import { readdirSync, rmSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import typescript from '@rollup/plugin-typescript';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

const root = dirname(fileURLToPath(import.meta.url));
const OUT = process.env.ASSIST_WIDGET_OUT ?? 'dist/widget/v1';

/**
 * What a website downloads from /widget/v1/:
 *
 * - `assist.js`, the one script tag: the global `Assist`, the headless client and
 *   `Assist.markdown`. Small enough to load on every page.
 * - one ES module per widget (`assist-chat-<hash>.js`, `assist-search-<hash>.js`) and the
 *   parts they share (Lit, theming, English strings), which `assist.js` imports on `mount()`,
 *   and one file per other language (`assist-locale-de-<hash>.js`), imported for the
 *   visitor's language only. A page with only a chat bubble never downloads the search
 *   widget, and a headless page neither.
 *
 * The widget modules do not carry their own copy of what `assist.js` already holds: the
 * modules listed in SHARED are taken from the registry `assist.js` publishes, so there is one
 * client, one markdown renderer and one AssistError class on the page.
 */
const SHARED = [
  'src/client/client.ts',
  'src/components/shared/markdown.ts',
  'src/core/errors.ts',
  'src/core/warn.ts',
  'src/core/locale.ts',
  'src/core/storage.ts',
  'src/core/status.ts',
  'src/core/identity.ts',
  'src/core/history.ts',
  'src/core/session.ts',
  'wire/contract.ts',
];
const REGISTRY = "globalThis[Symbol.for('assist.v1.modules')]";
const WIDGETS = { chat: 'src/components/assist-chat/index.ts', search: 'src/components/assist-search/index.ts' };

/** Widget build: imports of a SHARED module become reads from the registry of `assist.js`. */
function takeSharedFromAssistJs() {
  const shared = new Set(SHARED.map((file) => resolve(root, file)));
  return {
    name: 'take-shared-from-assist-js',
    async resolveId(source, importer, options) {
      if (!importer) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved && shared.has(resolved.id)) return `\0assist-shared:${relative(root, resolved.id)}`;
      return null;
    },
    async load(id) {
      if (!id.startsWith('\0assist-shared:')) return null;
      const file = id.slice('\0assist-shared:'.length);
      // The module's own exports, as rollup parsed them (its types vanished in compilation).
      const { exports: names } = await this.load({ id: resolve(root, file) });
      return `const module = ${REGISTRY}[${JSON.stringify(file)}];\n${names.map((name) => `export const ${name} = module.${name};`).join('\n')}`;
    },
  };
}

/** File names of the widget modules, filled by the widget build and written into `assist.js`. */
const widgetFiles = {};

function recordWidgetFiles() {
  return {
    name: 'record-widget-files',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && chunk.isEntry) widgetFiles[chunk.name] = chunk.fileName;
      }
    },
    writeBundle(_options, bundle) {
      // Hashed names change with every build: drop the previous builds' files, once the new ones are there.
      for (const file of readdirSync(OUT)) {
        if (/^assist-(?:chat|search|ui|locale)-[\w-]+\.js(?:\.map)?$/.test(file) && !(file in bundle)) rmSync(`${OUT}/${file}`, { force: true });
      }
    },
  };
}

/**
 * `assist.js` build: publishes the SHARED modules in the registry, and loads each widget from
 * its built file on the API origin instead of bundling it.
 */
function loadWidgetsFromFiles() {
  const entry = resolve(root, 'src/assist.ts');
  return {
    name: 'load-widgets-from-files',
    transform(code, id) {
      if (id !== entry) return null;
      let transformed = code;
      for (const [name, file] of Object.entries(WIDGETS)) {
        const specifier = `./${relative(resolve(root, 'src'), resolve(root, file)).replace(/\.ts$/, '.js')}`;
        const call = `import('${specifier}')`;
        if (!transformed.includes(call)) this.error(`src/assist.ts should load the ${name} widget with ${call}.`);
        if (!widgetFiles[name]) this.error(`The ${name} widget was not built before assist.js.`);
        transformed = transformed.replaceAll(call, `import(widgetBase + ${JSON.stringify(widgetFiles[name])})`);
      }
      const imports = SHARED.map((file, index) => `import * as shared${index} from ${JSON.stringify(resolve(root, file))};`).join('\n');
      const registry = SHARED.map((file, index) => `${JSON.stringify(file)}: shared${index}`).join(', ');
      return { code: `${imports}\n${transformed}\n${REGISTRY} ??= { ${registry} };\n`, map: null };
    },
  };
}

const typescriptPlugin = () =>
  typescript({ tsconfig: './tsconfig.json', noEmit: false, declaration: false, include: ['src/**/*.ts', 'wire/**/*.ts'] });
const minify = () => terser({ ecma: 2020, module: false, format: { comments: false } });

export default [
  {
    input: WIDGETS,
    output: {
      dir: OUT,
      format: 'es',
      entryFileNames: 'assist-[name]-[hash].js',
      // The strings of one language each (loaded for the visitor's language only), and the rest the widgets share.
      chunkFileNames: (chunk) => (chunk.facadeModuleId?.includes('/src/i18n/translations/') ? 'assist-locale-[name]-[hash].js' : 'assist-ui-[hash].js'),
      sourcemap: true,
      plugins: [terser({ ecma: 2020, module: true, format: { comments: false } })],
    },
    plugins: [recordWidgetFiles(), takeSharedFromAssistJs(), nodeResolve({ browser: true }), typescriptPlugin()],
  },
  {
    input: 'src/assist.ts',
    output: { file: `${OUT}/assist.js`, format: 'iife', sourcemap: true },
    plugins: [nodeResolve({ browser: true }), typescriptPlugin(), loadWidgetsFromFiles(), minify()],
  },
  {
    input: 'src/beacon/index.ts',
    output: { file: `${OUT}/assist-analytics.js`, format: 'iife', sourcemap: true },
    plugins: [nodeResolve({ browser: true }), typescriptPlugin(), minify()],
  },
];
