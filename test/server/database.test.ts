/**
 * The database layer every store module goes through, on the embedded database (where
 * statements are prepared once per connection) or on PostgreSQL: values and parameters
 * of every kind the server uses come back as written, a failed statement changes nothing
 * and leaves the connection usable, a transaction is all or nothing, and a statement run
 * again after many others (past what a connection keeps prepared) still gives its rows.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { freshPostgresDatabase, onPostgres } from './harness.js';
import { openDb, type Db } from '../../server/store/db.js';

describe(`database layer on ${onPostgres ? 'PostgreSQL' : 'the embedded database'}`, () => {
  let db: Db;
  let dropDatabase: (() => Promise<void>) | undefined;

  before(async () => {
    const database = onPostgres ? await freshPostgresDatabase() : undefined;
    dropDatabase = database?.drop;
    db = await openDb(database ? { databaseUrl: database.url } : { dataDir: 'memory' });
    await db.exec(`CREATE TABLE notes (id text PRIMARY KEY, body text, tags text[], data jsonb, count bigint, at timestamptz, done boolean)`);
  });

  after(async () => {
    await db.close();
    await dropDatabase?.();
  });

  test('values and parameters come back as written, nulls included', async () => {
    const at = new Date('2026-11-22T10:00:00.000Z');
    await db.query(`INSERT INTO notes VALUES ($1, $2, $3, $4, $5, $6, $7)`, ['a', 'it’s <b>', ['x', 'y, z'], { nested: [1, 'two'] }, 42, at, true]);
    await db.query(`INSERT INTO notes VALUES ($1, $2, $3, $4, $5, $6, $7)`, ['b', null, null, null, null, null, false]);
    const rows = await db.query<Record<string, unknown>>(`SELECT * FROM notes ORDER BY id`);
    assert.deepEqual(rows[0], { id: 'a', body: 'it’s <b>', tags: ['x', 'y, z'], data: { nested: [1, 'two'] }, count: 42, at, done: true });
    assert.deepEqual(rows[1], { id: 'b', body: null, tags: null, data: null, count: null, at: null, done: false });
    await db.query(`DELETE FROM notes`);
  });

  test('a failed statement changes nothing and the connection goes on', async () => {
    await db.query(`INSERT INTO notes (id, body) VALUES ($1, $2)`, ['kept', 'first']);
    await assert.rejects(db.query(`INSERT INTO notes (id, body) VALUES ($1, $2)`, ['kept', 'second']), { code: '23505' });
    await assert.rejects(db.query(`SELECT missing_column FROM notes`), { code: '42703' });
    assert.deepEqual(await db.query(`SELECT body FROM notes WHERE id = $1`, ['kept']), [{ body: 'first' }]);
    await db.query(`DELETE FROM notes`);
  });

  test('a transaction sees its own writes, and a failing one leaves nothing behind', async () => {
    const seen = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO notes (id) VALUES ($1)`, ['committed']);
      return tx.query<{ id: string }>(`SELECT id FROM notes WHERE id = $1`, ['committed']);
    });
    assert.deepEqual(seen, [{ id: 'committed' }]);
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO notes (id) VALUES ($1)`, ['rolled back']);
        throw new Error('stop');
      }),
      /stop/,
    );
    assert.deepEqual(await db.query(`SELECT id FROM notes ORDER BY id`), [{ id: 'committed' }]);
    await db.query(`DELETE FROM notes`);
  });

  test('a statement run again after hundreds of others still returns its rows', async () => {
    await db.query(`INSERT INTO notes (id, count) VALUES ($1, $2)`, ['counted', 7]);
    const lookup = `SELECT count FROM notes WHERE id = $1`;
    assert.deepEqual(await db.query(lookup, ['counted']), [{ count: 7 }]);
    for (let index = 0; index < 300; index++) {
      const [row] = await db.query<{ value: number }>(`SELECT $1::int + ${index} AS value`, [1]);
      assert.equal(row!.value, index + 1);
    }
    assert.deepEqual(await db.query(lookup, ['counted']), [{ count: 7 }]);
    await db.query(`DELETE FROM notes`);
  });

  test('a statement with many parameters (a bulk insert) runs', async () => {
    const ids = Array.from({ length: 150 }, (_, index) => `bulk-${index}`);
    await db.query(`INSERT INTO notes (id) VALUES ${ids.map((_, index) => `($${index + 1})`).join(', ')}`, ids);
    assert.deepEqual(await db.query(`SELECT count(*)::int AS count FROM notes WHERE id LIKE 'bulk-%'`), [{ count: 150 }]);
    await db.query(`DELETE FROM notes`);
  });
});
