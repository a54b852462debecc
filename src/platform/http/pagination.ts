// The one list shape: `?limit=` (1–100, default 20) and `?from=` (an offset) answer
// `{ data, limit, from, nextFrom }`, with nextFrom null on the last page.
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';

export const pageParams = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100.' }),
  from: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Offset of the first item; use nextFrom of the previous page.' }),
};

/**
 * A list route's query: the page parameters plus its own filters; unknown parameters are rejected. The
 * page parameters may be left out: validation fills in their defaults, so the route's handler always has
 * them (the static type) while the schema, and the document made from it, does not require them.
 */
export function ListQuery<P extends TProperties = Record<never, never>>(filters?: P) {
  const query = Type.Object({ ...pageParams, ...filters } as typeof pageParams & P, { additionalProperties: false });
  const schema = query as { required?: string[] };
  const required = (schema.required ?? []).filter((name) => !(name in pageParams));
  if (required.length > 0) schema.required = required;
  else delete schema.required;
  return query;
}

export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    limit: Type.Integer({ examples: [20] }),
    from: Type.Integer({ examples: [0] }),
    nextFrom: Type.Union([Type.Integer(), Type.Null()], { examples: [null] }),
  });
}

/** Repositories fetch `limit + 1` rows; the extra row only says that another page exists. */
export function toPage<T>(rows: T[], query: { limit: number; from: number }) {
  const more = rows.length > query.limit;
  return { data: rows.slice(0, query.limit), limit: query.limit, from: query.from, nextFrom: more ? query.from + query.limit : null };
}
