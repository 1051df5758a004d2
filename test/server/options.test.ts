/** The server's command line as `util.parseArgs` reads it: the forms operators type, and their edge cases. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flag, parseFlags, serverOptions, START_FLAGS } from '../../server/options.js';

const KNOWN = [...START_FLAGS, flag('credits', 'integer', 'N', 'credits'), flag('exclude', 'list', 'GLOB', 'skip'), flag('force', 'switch', undefined, 'force')];

test('--name value, --name=value, bare words and switches', () => {
  const parsed = parseFlags(['org', 'create', '--port', '0', '--host=::1', '--force', 'extra'], KNOWN);
  assert.deepEqual(parsed.words, ['org', 'create', 'extra']);
  assert.deepEqual(parsed.flags, { port: '0', host: '::1', force: true });
});

test('a repeated flag keeps its last value, and every value in order', () => {
  const parsed = parseFlags(['--exclude', 'a/**', '--exclude=b/**'], KNOWN);
  assert.equal(parsed.flags.exclude, 'b/**');
  assert.deepEqual(parsed.repeated.exclude, ['a/**', 'b/**']);
});

test('a flag is never the value of the one before it; a dash-number is a value', () => {
  assert.deepEqual(parseFlags(['--credits', '--port', '8080'], KNOWN).flags, { credits: true, port: '8080' });
  assert.deepEqual(parseFlags(['--credits', '-5'], KNOWN).flags, { credits: '-5' });
  assert.deepEqual(parseFlags(['--credits'], KNOWN).flags, { credits: true });
});

test('flags nobody declared are kept, for the command to refuse or pass on', () => {
  assert.deepEqual(parseFlags(['--unknown', '--port=1'], KNOWN).flags, { unknown: true, port: '1' });
});

test('start flags and their environment variables', () => {
  const options = serverOptions(parseFlags(['--port', '9000', '--fixture=none', '--admin-token', 'secret-secret-secret']).flags, { HOST: '0.0.0.0', ASSIST_RATE_LIMIT: '5' });
  assert.equal(options.port, 9000);
  assert.equal(options.host, '0.0.0.0');
  assert.equal(options.fixture, undefined);
  assert.equal(options.rateLimit, 5);
  assert.equal(options.adminToken, 'secret-secret-secret');
  assert.throws(() => serverOptions(parseFlags(['--port', 'x']).flags, {}), /--port must be a whole number from 0 to 65535/);
  assert.throws(() => serverOptions(parseFlags(['--port']).flags, {}), /--port needs a value/);
});
