#!/usr/bin/env node
/**
 * Lays out the server package `assist-server` in packages/server, for `npm pack packages/server`:
 * the compiled server (dist/node), the script-tag build it serves under /widget/v1/
 * (dist/widget), and the demo with the docs it answers from. npm packs only what is inside a
 * package's folder, so these are copies of the repository's build, made after it; the copies are
 * ignored by git. From the repository root the server keeps running from dist/node itself.
 */
import { cpSync, existsSync, rmSync } from 'node:fs';

const PACKAGE = 'packages/server';
const COPIES = [
  ['dist/node/server', `${PACKAGE}/dist/node/server`],
  ['dist/node/wire', `${PACKAGE}/dist/node/wire`],
  ['dist/widget', `${PACKAGE}/dist/widget`],
  ['demo', `${PACKAGE}/demo`],
  ['docs', `${PACKAGE}/docs`],
];

for (const [from] of COPIES) {
  if (!existsSync(from)) {
    console.error(`${from} is missing: run \`npm run build\` (the widget and the server) first.`);
    process.exit(2);
  }
}
for (const [from, to] of COPIES) {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}
