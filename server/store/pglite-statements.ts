/**
 * Queries on PGlite through named prepared statements. PGlite's own `query` parses and
 * describes a statement on every call, in six exchanges with the database; here a statement
 * is parsed and described the first time it is seen, and every later call is a single
 * exchange (Bind, Execute, Sync) that reuses the parse and, once PostgreSQL settles on one,
 * the plan. On a search that is about a fifth of a millisecond, every call.
 *
 * Results are the same as `query` gives: rows as objects, values through PGlite's type
 * parsers, parameters through its serializers, errors as the database's errors. Statements
 * too large to be worth keeping (bulk inserts) go through `query`. The file systems used
 * here (a directory, or memory) are written through, so there is nothing to sync after a
 * statement, as `query` would on a browser's storage.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';

type PGliteModule = typeof import('@electric-sql/pglite');

interface Field {
  name: string;
  dataTypeID: number;
}

interface Statement {
  name: string;
  parameterTypes: number[];
  /** Null for a statement that returns no rows (an INSERT without RETURNING). */
  fields: Field[] | null;
}

/** Statements kept per connection; the least recently used is closed past this. */
const MAX_STATEMENTS = 200;
const MAX_SQL_LENGTH = 8_000;
const MAX_PARAMETERS = 100;

/** A query on the connection, or inside `transaction` when given (PGlite's transaction object). */
export type PreparedQuery = <T>(sql: string, params: unknown[] | undefined, transaction?: Transaction) => Promise<T[]>;

export function preparedQueries(pglite: PGlite, lib: PGliteModule): PreparedQuery {
  const { serialize } = lib.protocol;
  const statements = new Map<string, Statement>();
  let named = 0;

  const exchange = async (messages: Uint8Array[]) => {
    const message = new Uint8Array(messages.reduce((length, part) => length + part.length, 0));
    let offset = 0;
    for (const part of messages) {
      message.set(part, offset);
      offset += part.length;
    }
    return pglite.execProtocolStream(message, { syncToFs: false });
  };

  async function prepare(sql: string): Promise<Statement> {
    const known = statements.get(sql);
    if (known) {
      // Most recently used last: the map's order is the eviction order.
      statements.delete(sql);
      statements.set(sql, known);
      return known;
    }
    const name = `assist_${++named}`;
    const messages = await exchange([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]);
    const statement: Statement = { name, parameterTypes: [], fields: null };
    for (const message of messages) {
      if (message instanceof lib.messages.ParameterDescriptionMessage) statement.parameterTypes = message.dataTypeIDs;
      if (message instanceof lib.messages.RowDescriptionMessage) statement.fields = message.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
    }
    if (statements.size >= MAX_STATEMENTS) {
      const [oldestSql, oldest] = statements.entries().next().value as [string, Statement];
      statements.delete(oldestSql);
      await exchange([serialize.close({ type: 'S', name: oldest.name }), serialize.sync()]);
    }
    statements.set(sql, statement);
    return statement;
  }

  async function run<T>(sql: string, params: unknown[]): Promise<T[]> {
    if (pglite.closed) throw new Error('PGlite is closed');
    const statement = await prepare(sql);
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const serializer = pglite.serializers[statement.parameterTypes[index]!];
      return serializer ? serializer(param) : String(param);
    });
    const messages = await exchange([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]);
    const fields = statement.fields;
    if (!fields) return [];
    const rows: T[] = [];
    for (const message of messages) {
      if (!(message instanceof lib.messages.DataRowMessage)) continue;
      const row: Record<string, unknown> = {};
      message.fields.forEach((value: string | null, index) => {
        row[fields[index]!.name] = lib.types.parseType(value, fields[index]!.dataTypeID, pglite.parsers);
      });
      rows.push(row as T);
    }
    return rows;
  }

  return async <T>(sql: string, params: unknown[] = [], transaction?: Transaction) => {
    if (transaction?.closed) throw new Error('Transaction is closed');
    if (sql.length > MAX_SQL_LENGTH || params.length > MAX_PARAMETERS) {
      return (await (transaction ?? pglite).query<T>(sql, params)).rows;
    }
    // The same locks as PGlite's `query`: one exchange at a time, and outside a transaction
    // none while another caller's transaction is open.
    const exclusive = () => pglite._runExclusiveQuery(() => run<T>(sql, params));
    return transaction ? exclusive() : pglite._runExclusiveTransaction(exclusive);
  };
}
