// Where personal data must never be: every table PVS keeps (the sandbox identity provider's own store,
// which plays the provider, excepted), the log, and the spans a traced test captured. Every table is
// read raw, whatever it is, so a table added later is searched too.
import type { TestContext } from './context.ts';
import type { SpanCapture } from './span-capture.ts';

/** Each place that holds one of `values` (case-insensitive), as "table holds …" or "the log holds …"; empty when none. */
export async function placesHolding(t: TestContext, values: string[], options: { spans?: SpanCapture } = {}): Promise<{ found: string[]; scanned: string[] }> {
  const wanted = values.map((v) => v.toLowerCase());
  const tables = await t.services.db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const found: string[] = [];
  const scanned: string[] = [];
  for (const { table_name: table } of tables) {
    if (table.startsWith('sandbox_identity_')) continue;
    scanned.push(table);
    const rows = await t.services.db.query(`SELECT * FROM "${table}"`);
    const text = JSON.stringify(rows, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : value)).toLowerCase();
    for (const [i, value] of wanted.entries()) if (text.includes(value)) found.push(`${table} holds "${values[i]}"`);
  }
  const logs = t.logText().toLowerCase();
  for (const [i, value] of wanted.entries()) if (logs.includes(value)) found.push(`the log holds "${values[i]}"`);
  if (options.spans) {
    const spans = (await options.spans.text()).toLowerCase();
    scanned.push('spans');
    for (const [i, value] of wanted.entries()) if (spans.includes(value)) found.push(`a span holds "${values[i]}"`);
  }
  return { found, scanned };
}
