import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { baseFixture, startTestServer, type TestServer } from './harness.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ fixture: baseFixture() });
});
after(() => server.stop());

test('the server answers health checks with its database', async () => {
  const response = await server.request('GET', '/healthz');
  assert.equal(response.status, 200);
  assert.equal(response.json.status, 'ok');
});
