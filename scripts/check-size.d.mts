/** Types of scripts/check-size.mjs, for the benchmark that reuses its measurements. */
export declare const KB: number;

export interface SizeBudget {
  entry: string;
  what: string;
  goal: number;
  limit: number;
}

export declare const BUDGETS: SizeBudget[];

export interface MeasuredFile {
  name: string;
  bytes: number;
  gzip: number;
}

export interface MeasuredEntry extends SizeBudget {
  name: string;
  missing: boolean;
  bytes: number;
  gzip: number;
  /** Files the entry loads later, found by their names in its code. */
  chunks: MeasuredFile[];
  totalGzip: number;
}

export interface MeasuredWidgetFiles {
  dir: string;
  entries: MeasuredEntry[];
  unreferenced: MeasuredFile[];
}

export interface WidgetFile extends MeasuredFile {
  text: string;
}

export declare function readWidgetFiles(dir: string): WidgetFile[];
export declare function filesLoadedBy(files: WidgetFile[], start: WidgetFile, claimed?: Set<string>): WidgetFile[];
export declare function gzipSize(content: string | Uint8Array): number;
export declare function measureWidgetFiles(dir: string): MeasuredWidgetFiles;
export declare function formatKb(bytes: number): string;
export declare function checkBudgets(measured: MeasuredWidgetFiles): { lines: string[]; withinLimits: boolean };
