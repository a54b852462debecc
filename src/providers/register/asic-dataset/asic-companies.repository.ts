// Every SQL statement about the offline copy of ASIC's company dataset (table asic_companies).
import type { Executor } from '../../../platform/db/database.ts';
import type { AsicCompany } from './asic-company.ts';

export interface AsicCompanyRow {
  acn: string;
  name: string;
  type: string;
  class: string | null;
  sub_class: string | null;
  status: string;
  /** YYYY-MM-DD, formatted in SQL so no time zone can shift the day. */
  registered_on: string | null;
  deregistered_on: string | null;
  abn: string | null;
  former_names: string[];
  imported_at: Date;
}

/** Two imports never interleave: the second waits for the first to commit or roll back. */
export async function lockImports(tx: Executor): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('pvs:asic-dataset-import'))`);
}

export async function latestImportedAt(db: Executor): Promise<Date | null> {
  const [row] = await db.query<{ at: Date | null }>(`SELECT max(imported_at) AS at FROM asic_companies`);
  return row?.at ?? null;
}

export async function countCompanies(db: Executor): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM asic_companies`);
  return row?.n ?? 0;
}

export async function hasAnyCompany(db: Executor): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM asic_companies) AS any`);
  return row?.any ?? false;
}

/**
 * One statement per batch (no ACN twice in a batch). A row left by an earlier import is replaced
 * outright. A row this import already wrote (the company's rows were split in the file) is merged:
 * the incoming part's name and facts win when its name is stated as current, otherwise the row's stay;
 * every other name of both parts becomes a former name. Safe as a read-then-write only because
 * imports hold lockImports.
 */
export async function upsertCompanies(tx: Executor, importedAt: Date, companies: readonly AsicCompany[]): Promise<void> {
  if (companies.length === 0) return;
  await tx.query(
    `INSERT INTO asic_companies AS t (acn, name, type, class, sub_class, status, registered_on, deregistered_on, abn, former_names, imported_at)
     SELECT i.acn, w.name, w.type, w.class, w.sub_class, w.status, w.registered_on, w.deregistered_on, w.abn,
            CASE WHEN c.imported_at = $1::timestamptz
                 THEN ARRAY(SELECT n FROM unnest(c.former_names || c.name || i.former_names || i.name) WITH ORDINALITY AS f(n, o)
                             WHERE n <> w.name GROUP BY n ORDER BY min(o))
                 ELSE i.former_names END,
            $1::timestamptz
       FROM (SELECT u.acn, u.name, u.stated, ARRAY(SELECT jsonb_array_elements_text(u.former)) AS former_names,
                    u.type, u.class, u.sub_class, u.status, u.registered_on, u.deregistered_on, u.abn
               FROM unnest($2::text[], $3::text[], $4::boolean[], $5::jsonb[], $6::text[], $7::text[], $8::text[], $9::text[], $10::date[], $11::date[], $12::text[])
                 AS u(acn, name, stated, former, type, class, sub_class, status, registered_on, deregistered_on, abn)) i
       LEFT JOIN asic_companies c ON c.acn = i.acn
      CROSS JOIN LATERAL (
            SELECT i.name, i.type, i.class, i.sub_class, i.status, i.registered_on, i.deregistered_on, i.abn
             WHERE c.imported_at IS DISTINCT FROM $1::timestamptz OR i.stated
            UNION ALL
            SELECT c.name, c.type, c.class, c.sub_class, c.status, c.registered_on, c.deregistered_on, c.abn
             WHERE c.imported_at = $1::timestamptz AND NOT i.stated) w
     ON CONFLICT (acn) DO UPDATE SET
            name = EXCLUDED.name, type = EXCLUDED.type, class = EXCLUDED.class, sub_class = EXCLUDED.sub_class,
            status = EXCLUDED.status, registered_on = EXCLUDED.registered_on, deregistered_on = EXCLUDED.deregistered_on,
            abn = EXCLUDED.abn, former_names = EXCLUDED.former_names, imported_at = EXCLUDED.imported_at`,
    [
      importedAt,
      companies.map((c) => c.acn),
      companies.map((c) => c.name),
      companies.map((c) => c.nameStated),
      companies.map((c) => JSON.stringify(c.formerNames)),
      companies.map((c) => c.type),
      companies.map((c) => c.class),
      companies.map((c) => c.subClass),
      companies.map((c) => c.status),
      companies.map((c) => c.registeredOn),
      companies.map((c) => c.deregisteredOn),
      companies.map((c) => c.abn),
    ],
  );
}

/** The companies an earlier import left that this one did not write: no longer in the dataset. */
export async function deleteCompaniesImportedBefore(tx: Executor, importedAt: Date): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `WITH gone AS (DELETE FROM asic_companies WHERE imported_at < $1::timestamptz RETURNING 1) SELECT count(*)::integer AS n FROM gone`,
    [importedAt],
  );
  return row?.n ?? 0;
}

export async function findCompanyByAcn(db: Executor, acn: string): Promise<AsicCompanyRow | undefined> {
  const [row] = await db.query<AsicCompanyRow>(
    `SELECT acn, name, type, class, sub_class, status,
            to_char(registered_on, 'YYYY-MM-DD') AS registered_on, to_char(deregistered_on, 'YYYY-MM-DD') AS deregistered_on,
            abn, former_names, imported_at
       FROM asic_companies WHERE acn = $1`,
    [acn],
  );
  return row;
}
