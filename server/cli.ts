#!/usr/bin/env node
/** `assist-server`: starts the server, and does the dashboard's jobs from the command line. */
import { pathToFileURL } from 'node:url';
import { runServer } from './main.js';
import { UsageError } from './options.js';

export async function main(argv: string[]): Promise<void> {
  const [command = 'start', ...rest] = argv;
  if (command === 'start' || command.startsWith('--')) return runServer(command === 'start' ? rest : argv);
  throw new UsageError(`unknown command "${command}". Try: assist-server help`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(`assist-server: ${(error as Error).message}`);
    process.exit(2);
  });
}
