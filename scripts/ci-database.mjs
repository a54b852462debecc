#!/usr/bin/env node
// CI's database chores on the local PostgreSQL: `create NAME`, `drop NAME`, and `sweep` (drops the
// per-file test databases of test files that died before dropping their own).
import pg from 'pg';

const [action, name] = process.argv.slice(2);
const client = new pg.Client({ connectionString: process.env.ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
const safe = (n) => {
  if (!/^[a-z0-9_]+$/.test(n ?? '')) throw new Error(`Not a database name: ${n}`);
  return n;
};

await client.connect();
try {
  if (action === 'create') await client.query(`CREATE DATABASE ${safe(name)}`);
  else if (action === 'drop') await client.query(`DROP DATABASE IF EXISTS ${safe(name)} WITH (FORCE)`);
  else if (action === 'sweep') {
    const { rows } = await client.query(String.raw`SELECT datname FROM pg_database WHERE datname LIKE 'pvs\_t\_%'`);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${safe(datname)} WITH (FORCE)`);
  } else throw new Error('usage: ci-database.mjs create NAME | drop NAME | sweep');
} finally {
  await client.end();
}
