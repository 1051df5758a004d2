/**
 * The two real documentation sets the benchmark reads as a new user's site would be read,
 * and the judged sets that go with them:
 *
 * - the PostgreSQL 15 manual (Debian `postgresql-doc-15`, DocBook HTML, about 1,170 pages);
 * - the Python 3.11 documentation (Debian `python3.11-doc`, Sphinx HTML, about 490 pages
 *   once the generated index pages are left out).
 *
 * Judged search sets: bench/corpus/queries-<corpus>.json, `{ corpus, about, queries: [{ query,
 * kind, relevant }] }`. Judged answer sets: bench/corpus/questions-<corpus>.json, or
 * questions-<corpus>-sample.json while that file does not exist. Page paths in both are
 * relative to the corpus folder (`sql-vacuum.html`, `library/json.html`). Later answer sets,
 * questions-<corpus>-fresh.json, -unseen.json and -chatty.json, are judged alike and measured
 * apart (LATER_SETS).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type CorpusId = 'postgres' | 'python';
export const CORPUS_IDS: CorpusId[] = ['postgres', 'python'];

export interface Corpus {
  id: CorpusId;
  name: string;
  /** The Debian package that installs it. */
  debianPackage: string;
  folder: string;
  /** Pages get this base url plus their path in the folder, as on the documentation's own site. */
  baseUrl: string;
}

export const CORPORA: Record<CorpusId, Corpus> = {
  postgres: {
    id: 'postgres',
    name: 'PostgreSQL 15 manual',
    debianPackage: 'postgresql-doc-15',
    folder: '/usr/share/doc/postgresql-doc-15/html',
    baseUrl: 'https://www.postgresql.org/docs/15/',
  },
  python: {
    id: 'python',
    name: 'Python 3.11 docs',
    debianPackage: 'python3.11-doc',
    folder: '/usr/share/doc/python3.11/html',
    baseUrl: 'https://docs.python.org/3.11/',
  },
};

/** The search kinds a judged set is made of, in the order reports list them. */
export const QUERY_KINDS = ['identifier', 'keywords', 'question', 'typo', 'partial'] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

export interface JudgedQuery {
  query: string;
  kind: QueryKind;
  /** Pages (paths relative to the corpus folder) that answer the query. */
  relevant: string[];
}

export interface JudgedQuestion {
  question: string;
  kind: string;
  /** The answer holds the answer when it contains any one of these (case and white space folded). */
  phrases: string[];
  /** Pages the answer may cite; it must cite one. */
  pages: string[];
}

export interface OffTopicQuestion {
  question: string;
  /** The visitor's language, which the refusal should be in. */
  language: string;
}

export interface QuestionSet {
  corpus: string;
  about: string;
  questions: JudgedQuestion[];
  offTopic: OffTopicQuestion[];
}

const HERE = dirname(fileURLToPath(import.meta.url));

/** Makes sure the corpus is on disk, installing its Debian package when it is not. */
export function ensureCorpus(corpus: Corpus, log: (line: string) => void = console.log): void {
  if (hasPages(corpus.folder)) return;
  log(`The benchmark corpus ${corpus.name} (${corpus.folder}) is missing; installing ${corpus.debianPackage} with apt-get…`);
  try {
    const asRoot = process.getuid?.() === 0;
    const command = asRoot ? 'apt-get' : 'sudo';
    const args = asRoot ? ['install', '-y', corpus.debianPackage] : ['-n', 'apt-get', 'install', '-y', corpus.debianPackage];
    execFileSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } catch (error) {
    throw new Error(
      `Could not install ${corpus.debianPackage} (${(error as Error).message.split('\n')[0]}). ` +
        `Install it by hand (as root: apt-get install -y ${corpus.debianPackage}) and run the benchmark again.`,
    );
  }
  if (!hasPages(corpus.folder)) throw new Error(`${corpus.debianPackage} is installed but ${corpus.folder} holds no HTML pages.`);
}

function hasPages(folder: string): boolean {
  return existsSync(folder) && readdirSync(folder).some((file) => file.endsWith('.html'));
}

/** The page path (relative to the corpus folder, no fragment) a hit's or a source's url points at; undefined outside the corpus. */
export function pathOf(corpus: Corpus, url: string): string | undefined {
  if (!url.startsWith(corpus.baseUrl)) return undefined;
  return decodeURIComponent(url.slice(corpus.baseUrl.length).split('#')[0]!);
}

export function loadSearchSet(corpus: CorpusId): JudgedQuery[] {
  const file = join(HERE, `queries-${corpus}.json`);
  const queries = (JSON.parse(readFileSync(file, 'utf8')) as { queries: JudgedQuery[] }).queries;
  for (const entry of queries) {
    if (!QUERY_KINDS.includes(entry.kind)) throw new Error(`${file}: ${JSON.stringify(entry.query)} has kind ${entry.kind}, not one of ${QUERY_KINDS.join(', ')}`);
  }
  return queries;
}

/** A question set and the name of the file it was read from. */
export interface LoadedQuestionSet {
  file: string;
  set: QuestionSet;
}

/** The judged answer set of a corpus, or its sample while the full set is not written; undefined when there is neither. */
export function loadQuestionSet(corpus: CorpusId): LoadedQuestionSet | undefined {
  return firstQuestionSet([`questions-${corpus}.json`, `questions-${corpus}-sample.json`]);
}

/**
 * Question sets judged by the same rules as the judged set but measured apart from it, since
 * they say more of what a visitor asking something new meets: the fresh set, written after the
 * engine was tuned against the judged one (its answers read since, when looking for what to
 * improve), the unseen set, written by someone who saw neither the engine nor its answers,
 * of which only how many are answered is ever looked at, and the chatty set, asked as visitors
 * chat (what went wrong first, the question within a sentence, "any ideas?" after it), written
 * from the pages without the engine's answers.
 */
export const LATER_SETS = [
  { label: 'fresh', file: 'fresh', about: 'written after tuning, read since', listMisses: true },
  { label: 'unseen', file: 'unseen', about: 'never read, only counted', listMisses: false },
  { label: 'chatty', file: 'chatty', about: 'asked as visitors chat: what went wrong first, the question within a sentence, "any ideas?" after it', listMisses: true },
] as const;

/** A later question set of a corpus, with its label and what sets it apart. */
export interface LaterQuestionSet extends LoadedQuestionSet {
  label: (typeof LATER_SETS)[number]['label'];
  about: string;
  /** Whether `--verbose` lists the questions it leaves unanswered: never for the unseen set. */
  listMisses: boolean;
}

/** The corpus's later question sets (questions-<corpus>-fresh.json, -unseen.json, -chatty.json) that exist, in that order. */
export function loadLaterQuestionSets(corpus: CorpusId): LaterQuestionSet[] {
  return LATER_SETS.flatMap(({ label, file, about, listMisses }) => {
    const loaded = firstQuestionSet([`questions-${corpus}-${file}.json`]);
    return loaded ? [{ ...loaded, label, about, listMisses }] : [];
  });
}

function firstQuestionSet(names: string[]): LoadedQuestionSet | undefined {
  for (const name of names) {
    const file = join(HERE, name);
    if (existsSync(file)) return { file: name, set: JSON.parse(readFileSync(file, 'utf8')) as QuestionSet };
  }
  return undefined;
}

/** A benchmark is one client sending as fast as it can: no per-address rate or stream limits. */
export const UNLIMITED = { searchRateLimit: 0, eventsRateLimit: 0, maxStreams: 0, maxStreamsPerClient: 0 };
