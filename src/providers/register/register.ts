// The business registers a lookup reads: the ABN register (ABR: the business, its ABN status and names)
// and the company register (ASIC: the company, its officers and its shareholders). Expected failures come
// back as values; an exception is a bug.

export type EntityType = 'COMPANY' | 'SOLE_TRADER' | 'PARTNERSHIP' | 'TRUST' | 'OTHER';

export type RegisterResult<T> = { ok: true; value: T } | { ok: false; reason: 'NOT_FOUND' | 'UNAVAILABLE'; detail?: string };

/** What the ABN register says about a business (ABR ABN Lookup). Dates are YYYY-MM-DD. */
export interface AbnRecord {
  abn: string;
  /** `ACTIVE` or `CANCELLED`. */
  status: 'ACTIVE' | 'CANCELLED';
  statusFrom: string | null;
  /** The entity's name; for a sole trader, a person's name (personal information). */
  entityName: string;
  entityType: EntityType;
  /** The register's own code and words, e.g. `PRV` "Australian Private Company". */
  entityTypeCode: string | null;
  entityTypeName: string | null;
  /** The company's ACN when the business is a company. */
  acn: string | null;
  gstRegisteredFrom: string | null;
  businessNames: string[];
  state: string | null;
  postcode: string | null;
}

export interface AbnRegister {
  findByAbn(abn: string): Promise<RegisterResult<AbnRecord>>;
  /** The ABN record of the company with this ACN. */
  findByAcn(acn: string): Promise<RegisterResult<AbnRecord>>;
}

/** What the company register says about a company (ASIC). Dates are YYYY-MM-DD. */
export interface CompanyRecord {
  acn: string;
  name: string;
  /** ASIC's codes: type `APTY` (proprietary) or `APUB` (public); class `LMSH` (limited by shares)… */
  type: string;
  class: string | null;
  subClass: string | null;
  /** ASIC's status code: `REGD` registered, `DRGD` deregistered, `EXAD` external administration, `SOFF` strike-off… */
  status: string;
  registeredOn: string | null;
  deregisteredOn: string | null;
  abn: string | null;
}

export interface CompanyRegister {
  findCompany(acn: string): Promise<RegisterResult<CompanyRecord>>;
}
