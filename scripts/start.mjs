#!/usr/bin/env node
// `npm start`: builds what is missing or older than its sources, then starts the reference
// server with the demo fixture.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The newest modification time of a file or of any file below a folder. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const builds = [
  { script: 'build:widget', outputs: ['dist/widget/v1/assist.js', 'dist/widget/v1/assist-analytics.js'], sources: ['src', 'wire', 'rollup.config.mjs'] },
  { script: 'build:server', outputs: ['dist/node/server/main.js', 'dist/node/server/cli.js'], sources: ['server', 'wire'] },
];
for (const { script, outputs, sources } of builds) {
  const built = Math.min(...outputs.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  if (built > Math.max(...sources.map(newest))) continue;
  const result = spawnSync(npm, ['run', script], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const child = spawn(process.execPath, ['dist/node/server/cli.js', 'start', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
