/**
 * Bytes a visitor downloads: the gzip size of each script under dist/widget/v1/ (measured by
 * scripts/check-size.mjs, the same code CI enforces the limits with), next to a baseline
 * built in the same run: a bundle of only Lit, marked and DOMPurify, built with the same
 * rollup plugins and terser settings as the real one. What the real bundle adds on top of
 * that floor is ours to find.
 *
 * When assist.js loads the widgets from files of their own, a page pays for the first file
 * on every visit and for a widget's files once it mounts; both are reported.
 *
 * Where the bytes go: the widget scripts are rebuilt in memory with rollup's JS API from the
 * project's own rollup.config.mjs, and each module's rendered code (after tree-shaking) is
 * grouped by package or source folder, minified alone with the same terser settings, and given
 * its share of the real gzip size.
 *
 *   node --import tsx bench/size.ts   (after npm run build:widget)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rollup, type InputOptions, type OutputChunk, type OutputOptions, type Plugin, type RollupOptions } from 'rollup';
import { minify } from 'terser';
import { checkBudgets, filesLoadedBy, formatKb, gzipSize, measureWidgetFiles, readWidgetFiles } from '../scripts/check-size.mjs';
import { printSection, type Section } from './figures.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WIDGET_DIR = join(ROOT, 'dist', 'widget', 'v1');

/**
 * The floor: the three libraries the widgets cannot do without, each used the way the
 * widgets use it, so tree-shaking keeps what a real component keeps.
 */
const BASELINE_ENTRY = `
import { LitElement, html, css, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { Marked } from 'marked';
import createDOMPurify from 'dompurify';

const markdown = new Marked({ gfm: true, async: false });
const purifier = createDOMPurify(window);

class BaselineView extends LitElement {
  static properties = { text: { type: String }, open: { type: Boolean } };
  static styles = css\`:host { display: block; color: var(--assist-text, #111); }\`;
  render() {
    return html\`<button @click=\${() => (this.open = !this.open)} aria-expanded=\${this.open}>\${this.open ? 'Close' : 'Open'}</button>
      \${this.open ? html\`<div>\${unsafeHTML(purifier.sanitize(markdown.parse(this.text || '')))}</div>\` : nothing}\`;
  }
}
customElements.define('baseline-view', BaselineView);
`;

/** Every build of rollup.config.mjs, in its order (a later one may use what an earlier one produced). */
async function projectConfigs(): Promise<(RollupOptions & { output: OutputOptions })[]> {
  const { default: configs } = (await import(pathToFileURL(join(ROOT, 'rollup.config.mjs')).href)) as { default: RollupOptions | RollupOptions[] };
  return [configs]
    .flat()
    .flatMap((config) => [config.output ?? []].flat().map((output) => ({ ...config, output })));
}

function isAssistJs(config: { output: OutputOptions }): boolean {
  return Boolean(config.output.file && config.output.file.endsWith('/assist.js'));
}

function pluginList(config: InputOptions): Plugin[] {
  return [config.plugins ?? []].flat(Infinity as 1).filter((plugin): plugin is Plugin => Boolean(plugin && typeof plugin === 'object' && 'name' in plugin));
}

async function buildInMemory(input: InputOptions, output: OutputOptions): Promise<OutputChunk[]> {
  const bundle = await rollup({ ...input, onwarn: () => {} });
  try {
    const { output: files } = await bundle.generate({ ...output, file: undefined, dir: undefined, sourcemap: false });
    return files.filter((file): file is OutputChunk => file.type === 'chunk');
  } finally {
    await bundle.close();
  }
}

/** Lit + marked + DOMPurify alone, with the plugins (resolve, terser) of the assist.js build. */
async function buildBaseline(): Promise<OutputChunk> {
  const config = (await projectConfigs()).find(isAssistJs);
  if (!config) throw new Error('rollup.config.mjs has no build of assist.js');
  // The entry sits in bench/.cache so that node resolution finds the project's node_modules.
  const entry = join(ROOT, 'bench', '.cache', 'size-baseline-entry.js');
  mkdirSync(dirname(entry), { recursive: true });
  writeFileSync(entry, BASELINE_ENTRY);
  const plugins = pluginList(config).filter((plugin) => plugin.name !== 'typescript');
  const [chunk] = await buildInMemory({ input: entry, plugins }, { ...config.output, file: undefined });
  return chunk!;
}

/**
 * The alternative to the split, built in this run to choose between them: `assist.js` as one
 * classic script holding both widgets and all 13 locales (the widgets' `import()` calls inlined
 * instead of loaded from their own files).
 */
async function buildSingleFile(): Promise<OutputChunk> {
  const config = (await projectConfigs()).find(isAssistJs);
  if (!config) throw new Error('rollup.config.mjs has no build of assist.js');
  const plugins = pluginList(config).filter((plugin) => plugin.name !== 'load-widgets-from-files');
  const [chunk] = await buildInMemory({ input: config.input, plugins }, { ...config.output, inlineDynamicImports: true });
  return chunk!;
}

/** The builds of rollup.config.mjs but the beacon's, in memory: the chunks the widget scripts are made of. */
async function buildProject(): Promise<OutputChunk[]> {
  const chunks: OutputChunk[] = [];
  for (const config of await projectConfigs()) {
    if (config.output.file?.endsWith('/assist-analytics.js')) continue;
    const built = await buildInMemory({ ...config, plugins: pluginList(config) }, config.output);
    if (isAssistJs(config)) for (const chunk of built) chunk.fileName = 'assist.js';
    chunks.push(...built);
  }
  return chunks;
}

/** Which group a module's bytes count towards: a package, or a source folder. */
function moduleGroup(id: string): string {
  const path = relative(ROOT, id.replace(/^\0/, '')).split(sep).join('/');
  const inPackage = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) {
    const name = inPackage[1]!;
    return ['lit', 'lit-html', 'lit-element', '@lit/reactive-element'].includes(name) ? 'lit (lit-html, lit-element, reactive-element)' : name;
  }
  const parts = path.split('/');
  if (parts[0] === 'src' && parts[1] === 'components') return parts.slice(0, 3).join('/');
  if (parts[0] === 'src' && parts[1] === 'i18n') return parts[2] === 'translations' ? 'src/i18n/translations (13 locales)' : 'src/i18n';
  if (parts[0] === 'src') return parts.length > 2 ? parts.slice(0, 2).join('/') : path;
  return parts.length > 1 ? parts.slice(0, parts.length - 1).join('/') : path;
}

interface Contributor {
  group: string;
  modules: number;
  renderedBytes: number;
  minifiedBytes: number;
  /** Its share of the real file's gzip size, by minified bytes. */
  gzipShare: number;
}

/** Where the bytes of `chunks` go, by group, with each group's share of `realGzip` by minified size. */
async function contributors(chunks: OutputChunk[], realGzip: number, terserOptions: object): Promise<Contributor[]> {
  // Code is kept per chunk: names are unique within a chunk, not across chunks.
  const groups = new Map<string, { modules: number; renderedBytes: number; codeByChunk: Map<string, string[]> }>();
  for (const chunk of chunks) {
    for (const [id, module] of Object.entries(chunk.modules)) {
      if (module.renderedLength === 0) continue;
      const name = moduleGroup(id);
      const group = groups.get(name) ?? { modules: 0, renderedBytes: 0, codeByChunk: new Map<string, string[]>() };
      group.modules++;
      group.renderedBytes += module.renderedLength;
      group.codeByChunk.set(chunk.fileName, [...(group.codeByChunk.get(chunk.fileName) ?? []), module.code ?? '']);
      groups.set(name, group);
    }
  }
  const rows: Omit<Contributor, 'gzipShare'>[] = [];
  for (const [group, { modules, renderedBytes, codeByChunk }] of groups) {
    let minifiedBytes = 0;
    for (const code of codeByChunk.values()) {
      // As a classic script with top-level names kept, so nothing is dropped as unused: the
      // bundle keeps exactly this code.
      const minified = await minify(code.join('\n'), { ...terserOptions, module: false, toplevel: false });
      minifiedBytes += minified.code?.length ?? 0;
    }
    rows.push({ group, modules, renderedBytes, minifiedBytes });
  }
  const totalMinified = rows.reduce((total, row) => total + row.minifiedBytes, 0);
  return rows
    .map((row) => ({ ...row, gzipShare: (row.minifiedBytes / totalMinified) * realGzip }))
    .sort((a, b) => b.gzipShare - a.gzipShare);
}

export async function runSizeBench(log: (line: string) => void = console.log): Promise<Section> {
  const measured = measureWidgetFiles(WIDGET_DIR);
  const assist = measured.entries.find((entry) => entry.name === 'assist.js')!;
  const beacon = measured.entries.find((entry) => entry.name === 'assist-analytics.js')!;
  const baseline = await buildBaseline();
  const baselineGzip = gzipSize(baseline.code);
  const kb = (bytes: number) => formatKb(bytes);
  const section: Section = {
    title: 'Bytes a visitor downloads (gzip -9)',
    baselineIs: `Lit + marked + DOMPurify alone (${kb(baseline.code.length)} minified), built in this run with the same rollup plugins and terser settings.`,
    figures: [],
    details: [],
  };
  if (!assist.missing) {
    section.figures.push({
      what: 'assist.js, the script tag (first file)',
      value: kb(assist.gzip),
      baseline: kb(baselineGzip),
      goal: `≤ ${kb(assist.goal)} (CI fails above ${kb(assist.limit)})`,
      met: assist.gzip <= assist.goal,
    });
    log('size: building the single-file alternative (both widgets and every locale in assist.js)…');
    const single = gzipSize((await buildSingleFile()).code);
    section.figures.push({ what: 'the alternative: one assist.js with both widgets and all 13 locales', value: kb(single), baseline: kb(baselineGzip) });
    // What a page pays once a widget mounts: the first file, the widget's file and what that loads.
    const files = readWidgetFiles(WIDGET_DIR);
    const entryFile = files.find((file) => file.name === 'assist.js')!;
    for (const widget of ['chat', 'search']) {
      const widgetFile = files.find((file) => new RegExp(`^assist-${widget}[-.]`).test(file.name));
      if (!widgetFile) continue;
      // A page loads the strings of one language at most (none for English): the largest is counted.
      const all = [widgetFile, ...filesLoadedBy(files, widgetFile, new Set([entryFile.name, widgetFile.name]))];
      const locales = all.filter((file) => file.name.startsWith('assist-locale-'));
      const largestLocale = locales.reduce((largest, file) => (file.gzip > (largest?.gzip ?? 0) ? file : largest), locales[0]);
      const loaded = [...all.filter((file) => !locales.includes(file)), ...(largestLocale ? [largestLocale] : [])];
      const total = entryFile.gzip + loaded.reduce((sum, file) => sum + file.gzip, 0);
      section.figures.push({
        what: `a page with the ${widget} widget mounted (${1 + loaded.length} files${largestLocale ? ', with the largest language file' : ''})`,
        value: kb(total),
        baseline: kb(baselineGzip),
      });
    }
    if (assist.chunks.length > 0) {
      section.figures.push({ what: `both widgets: assist.js and every file it loads (${1 + assist.chunks.length} files)`, value: kb(assist.totalGzip), baseline: kb(baselineGzip) });
    }
    section.figures.push({ what: 'both widgets, above the floor (our code)', value: kb(assist.totalGzip - baselineGzip), baseline: '0.0 KB' });
  }
  if (!beacon.missing) {
    section.figures.push({
      what: 'assist-analytics.js',
      value: kb(beacon.gzip),
      baseline: 'n/a (no library)',
      goal: `≤ ${kb(beacon.goal)} (CI limit ${kb(beacon.limit)})`,
      met: beacon.gzip <= beacon.goal,
    });
  }
  const { lines } = checkBudgets(measured);
  section.details.push('CI check (npm run test:size):', ...lines.map((line) => `  ${line}`));

  if (!assist.missing) {
    log('size: rebuilding the widget scripts in memory to see where their bytes go…');
    const chunks = await buildProject();
    const terserOptions = { ecma: 2020, format: { comments: false } };
    const first = chunks.filter((chunk) => chunk.fileName === 'assist.js');
    const later = chunks.filter((chunk) => chunk.fileName !== 'assist.js');
    for (const [label, group] of [
      ['assist.js', first],
      [`the files loaded on mount (${later.map((chunk) => chunk.fileName).join(', ')})`, later],
    ] as const) {
      if (group.length === 0) continue;
      const gzip = group.reduce((total, chunk) => total + gzipSize(chunk.code), 0);
      const rows = await contributors([...group], gzip, terserOptions);
      section.details.push(
        '',
        `where the bytes of ${label} go, ${kb(gzip)} gzip (rendered = after tree-shaking, before minifying; ≈ gzip = share by minified size):`,
        `  ${'group'.padEnd(44)} ${'modules'.padStart(7)} ${'rendered'.padStart(10)} ${'minified'.padStart(10)} ${'≈ gzip'.padStart(9)}`,
        ...rows.map(
          (row) =>
            `  ${row.group.padEnd(44)} ${String(row.modules).padStart(7)} ${kb(row.renderedBytes).padStart(10)} ${kb(row.minifiedBytes).padStart(10)} ${kb(row.gzipShare).padStart(9)}`,
        ),
      );
    }
    const biggest = chunks
      .flatMap((chunk) => Object.entries(chunk.modules).map(([id, module]) => ({ id: relative(ROOT, id.replace(/^\0/, '')), file: chunk.fileName, bytes: module.renderedLength })))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 15);
    section.details.push('', 'biggest modules (rendered bytes, file):', ...biggest.map((module) => `  ${kb(module.bytes).padStart(9)}  ${module.id}  (${module.file})`));
  }
  return section;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runSizeBench()
    .then((section) => printSection(section))
    .catch((error) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exit(1);
    });
}

