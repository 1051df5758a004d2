/**
 * The judged search queries of the PostgreSQL manual, which the speed and throughput
 * benchmarks mix into their runs as real users' queries. Search quality itself is measured
 * on whole documentation sets by bench/docs-quality.ts.
 */
import { loadSearchSet, type JudgedQuery } from './corpus/docs.js';

export type { JudgedQuery };

export function loadJudgedQueries(): JudgedQuery[] {
  return loadSearchSet('postgres');
}
