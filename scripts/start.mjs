#!/usr/bin/env node
// `npm start`: builds what is missing, then starts the reference server with the demo fixture.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const missing = [
  ['dist/widget/v1/assist.js', 'build:widget'],
  ['dist/widget/v1/assist-analytics.js', 'build:widget'],
  ['dist/node/server/main.js', 'build:server'],
].filter(([file]) => !existsSync(file));
for (const script of new Set(missing.map(([, script]) => script))) {
  const result = spawnSync(npm, ['run', script], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const child = spawn(process.execPath, ['dist/node/server/cli.js', 'start', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
