/** Running the server's command line from tests, in this process, with its output collected. */
import { main, type CliIo } from '../../server/cli.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as JSON, when it is JSON (commands print their result so). */
  json: any;
}

export function jsonOf(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/** `assist-server ARGS` through `main`: the command's own code path minus the process start. */
export async function runInProcess(args: string[], io: Partial<Pick<CliIo, 'env' | 'stderrIsTerminal'>> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: io.env ?? {},
    stderrIsTerminal: io.stderrIsTerminal ?? false,
  });
  return { code, stdout, stderr, json: jsonOf(stdout) };
}
