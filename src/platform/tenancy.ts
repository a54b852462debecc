// Tenancy in the data layer. Every repository function that reads or writes a partner's rows takes a
// Tenant as its first argument and filters by it in SQL. A Tenant is made only by the /v1
// authentication hook (from a verified token) or by an admin command, so a route cannot forget to
// scope a query: without a Tenant it cannot call the repository at all.

declare const tenantBrand: unique symbol;

export interface Tenant {
  readonly partnerId: string;
  readonly [tenantBrand]: true;
}

/** Only for the authentication hook, admin commands and tests. */
export function tenantOf(partnerId: string): Tenant {
  return Object.freeze({ partnerId }) as Tenant;
}
