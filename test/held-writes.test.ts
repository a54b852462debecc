// Held writes (Queryable.write): inside a transaction they wait for its next statement or its commit and
// go as one statement; a transaction of held writes only is atomic on its own; nothing held survives a
// rollback; outside a transaction a write runs at once; a write can be told its row count, and fail the
// transaction from there; a query that needs none of their effects can go with them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { combineWrites, combineWritesWithQuery } from '../src/platform/db/database.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';

let database: TestDatabase;

before(async () => {
  database = await createTestDatabase();
  await database.db.exec(`
    CREATE TABLE held_parents (id integer PRIMARY KEY, name text NOT NULL);
    CREATE TABLE held_children (id integer PRIMARY KEY, parent_id integer NOT NULL REFERENCES held_parents (id));`);
});
after(() => database.drop());

async function ids(table: 'held_parents' | 'held_children') {
  return (await database.db.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`)).map((r) => r.id);
}

describe('combineWrites', () => {
  it('one write is sent as it is; several become one WITH statement, parameters renumbered in order', () => {
    const one = { sql: 'INSERT INTO t (a) VALUES ($1)', params: [1] };
    assert.equal(combineWrites([one]), one);
    const combined = combineWrites([one, { sql: 'UPDATE u SET b = $2 WHERE id = $1', params: ['x', 'y'] }, { sql: 'INSERT INTO v (c, d) VALUES ($1, $1)', params: [3] }]);
    assert.equal(combined.sql, 'WITH w0 AS (INSERT INTO t (a) VALUES ($1)),\nw1 AS (UPDATE u SET b = $3 WHERE id = $2),\nw2 AS (INSERT INTO v (c, d) VALUES ($4, $4))\nSELECT 1');
    assert.deepEqual(combined.params, [1, 'x', 'y', 3]);
  });

  it('ends with a query that asks to go with the writes, its parameters after theirs; not with a write that wants its count', () => {
    const writes = [{ sql: 'INSERT INTO t (a) VALUES ($1)', params: [1] }];
    const combined = combineWritesWithQuery(writes, { sql: 'SELECT id FROM u WHERE a = $1 AND b = $2', params: ['x', 'y'] });
    assert.equal(combined?.sql, 'WITH w0 AS (INSERT INTO t (a) VALUES ($1))\nSELECT id FROM u WHERE a = $2 AND b = $3');
    assert.deepEqual(combined?.params, [1, 'x', 'y']);
    assert.equal(combineWritesWithQuery([], { sql: 'SELECT 1', params: [] }), undefined, 'nothing held');
    assert.equal(combineWritesWithQuery([{ ...writes[0]!, rows: () => {} }], { sql: 'SELECT 1', params: [] }), undefined, 'a write that wants its count');
    assert.equal(combineWritesWithQuery(writes, { sql: 'UPDATE u SET a = 1', params: [] }), undefined, 'not a SELECT');
  });

  it('answers the row counts of the writes that ask for them, as one row', () => {
    const counted = combineWrites([
      { sql: 'INSERT INTO t (a) VALUES ($1)', params: [1] },
      { sql: 'UPDATE u SET b = 1 WHERE id = $1 RETURNING id', params: ['x'], rows: () => {} },
    ]);
    assert.match(counted.sql, /\nSELECT \(SELECT count\(\*\) FROM w1\)::int AS w1$/);
  });
});

describe('held writes', () => {
  it('a transaction of held writes only writes them all, a row and the rows referring to it included', async () => {
    await database.db.transaction(async (tx) => {
      await tx.write('INSERT INTO held_parents (id, name) VALUES ($1, $2)', [1, 'one']);
      await tx.write('INSERT INTO held_children (id, parent_id) VALUES ($1, $2)', [10, 1]);
      await tx.write('INSERT INTO held_children (id, parent_id) VALUES ($1, $2)', [11, 1]);
    });
    assert.deepEqual(await ids('held_parents'), [1]);
    assert.deepEqual(await ids('held_children'), [10, 11]);
  });

  it('is all or nothing: one failing write leaves none, and the error surfaces from the transaction', async () => {
    await assert.rejects(
      database.db.transaction(async (tx) => {
        await tx.write('INSERT INTO held_parents (id, name) VALUES ($1, $2)', [2, 'two']);
        await tx.write('INSERT INTO held_children (id, parent_id) VALUES ($1, $2)', [20, 999]);
      }),
      /foreign key/,
    );
    assert.deepEqual(await ids('held_parents'), [1]);
  });

  it('are sent before the next query, in order, so the query sees them; a rollback undoes them', async () => {
    await assert.rejects(
      database.db.transaction(async (tx) => {
        await tx.write('INSERT INTO held_parents (id, name) VALUES ($1, $2)', [3, 'three']);
        const seen = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM held_parents WHERE id = 3');
        assert.equal(seen[0]!.n, 1);
        await tx.write('INSERT INTO held_children (id, parent_id) VALUES ($1, $2)', [30, 3]);
        throw new Error('the work failed');
      }),
      /the work failed/,
    );
    assert.deepEqual(await ids('held_parents'), [1]);
    assert.deepEqual(await ids('held_children'), [10, 11]);
  });

  it('mixed with queries, every held write reaches the database at the commit', async () => {
    await database.db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await tx.write('INSERT INTO held_parents (id, name) VALUES ($1, $2)', [4, 'four']);
      await tx.write('UPDATE held_parents SET name = $2 WHERE id = $1', [1, 'uno']);
    });
    assert.deepEqual(await database.db.query('SELECT id, name FROM held_parents ORDER BY id'), [
      { id: 1, name: 'uno' },
      { id: 4, name: 'four' },
    ]);
  });

  it('outside a transaction a write runs at once', async () => {
    await database.db.write('INSERT INTO held_parents (id, name) VALUES ($1, $2)', [5, 'five']);
    assert.deepEqual(await ids('held_parents'), [1, 4, 5]);
  });

  it('tell the writes that ask how many rows they returned, in and out of a transaction', async () => {
    const counts: Record<string, number> = {};
    const rows = (name: string) => ({ rows: (n: number) => void (counts[name] = n) });
    await database.db.transaction(async (tx) => {
      await tx.write('INSERT INTO held_parents (id, name) VALUES ($1, $2)', [6, 'six']);
      await tx.write('UPDATE held_parents SET name = name WHERE id IN (1, 4) RETURNING id', [], rows('two'));
      await tx.write('UPDATE held_parents SET name = name WHERE id = 404 RETURNING id', [], rows('none'));
    });
    await database.db.transaction((tx) => tx.write('UPDATE held_parents SET name = name WHERE id = 1 RETURNING id', [], rows('alone')));
    await database.db.write('UPDATE held_parents SET name = name WHERE id IN (1, 4, 5) RETURNING id', [], rows('outside'));
    assert.deepEqual(counts, { two: 2, none: 0, alone: 1, outside: 3 });
  });

  it('a query that asks to go with them is one statement with them, and sees the database as it was before them', async () => {
    const seen = await database.db.transaction(async (tx) => {
      await tx.write('INSERT INTO held_parents (id, name) VALUES ($1, $2)', [8, 'eight']);
      const before = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM held_parents WHERE id >= $1', [8], { withHeldWrites: true });
      const after = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM held_parents WHERE id >= $1', [8]);
      return [before[0]!.n, after[0]!.n];
    });
    assert.deepEqual(seen, [0, 1]);
    assert.deepEqual(await ids('held_parents'), [1, 4, 5, 6, 8]);
    // A held write that wants its count is sent first, on its own: the query then sees it.
    const counted = await database.db.transaction(async (tx) => {
      await tx.write('UPDATE held_parents SET name = $2 WHERE id = $1 RETURNING id', [8, 'ocho'], { rows: () => {} });
      return tx.query<{ name: string }>('SELECT name FROM held_parents WHERE id = $1', [8], { withHeldWrites: true });
    });
    assert.deepEqual(counted, [{ name: 'ocho' }]);
  });

  it('a count that fails the check rolls back every held write, even in a transaction of held writes only', async () => {
    for (const precededByQuery of [false, true]) {
      await assert.rejects(
        database.db.transaction(async (tx) => {
          if (precededByQuery) await tx.query('SELECT 1');
          await tx.write('INSERT INTO held_parents (id, name) VALUES ($1, $2)', [7, 'seven']);
          await tx.write('UPDATE held_parents SET name = $2 WHERE id = $1 RETURNING id', [404, 'gone'], {
            rows: (n) => {
              if (n !== 1) throw new Error('the row was not there');
            },
          });
        }),
        /the row was not there/,
      );
      assert.deepEqual(await ids('held_parents'), [1, 4, 5, 6, 8]);
    }
  });
});
