// The ABN register through ABR ABN Lookup's JSON web services (abr.business.gov.au/json/):
// `AbnDetails.aspx?abn=…&callback=…&guid=…` and `AcnDetails.aspx?acn=…&callback=…&guid=…`, which
// answer JSONP, `callback({ Abn, AbnStatus, AbnStatusEffectiveFrom, Acn, AddressDate, AddressPostcode,
// AddressState, BusinessName[], EntityName, EntityTypeCode, EntityTypeName, Gst, Message })`.
//
// Invariants:
// - The GUID never reaches a result, an error or a log line: every text we build or pass on from ABR
//   goes through `redact` (ABR has been seen to echo the GUID after its own message).
// - The answer is parsed, never evaluated: the padding must be exactly our callback name, and what is
//   inside goes through JSON.parse. Anything else is UNAVAILABLE.
// - One HTTP call per lookup, bounded by `timeoutMs` (headers and body alike). Retrying with backoff
//   is the lookup job's work, not this client's.
// - Expected failures are values; only misconfiguration at construction is thrown.
//
// ABR reports errors with HTTP 200 and an otherwise empty record whose `Message` carries the text.
// The texts, and where they come from:
// - NOT_FOUND
//   "No records found": the documented exception for a number not on the register (SEARCH code,
//     abr.business.gov.au/Documentation/Exceptions; "ABN not found"/"ACN not found" rows of the Search
//     by ABN / by ASIC validation rules). "No record found" is matched too (seen in client code).
//   "Search text is not a valid ABN or ACN": what the JSON endpoints answer for a number that fails
//     its check digit (observed in recorded responses used by several public ABR clients).
//   "Search string does not match search type: …", "An ACN is invalid in ABN Search", "An ABN is
//     invalid in ACN Search": documented validation texts for a number of the wrong kind.
//   An empty `Abn` with an empty `Message` is read as not found as well (clients observe it).
// - UNAVAILABLE, flagged as a configuration error (see `abrConfigurationError`)
//   Any text naming the GUID: "The GUID entered is not recognised as a Registered Party", "The party
//     identified by this GUID has not been registered for the requested service", "The registration
//     for the party identified by this GUID has been cancelled…", "A GUID must be supplied to access
//     service", "The Authentication GUID is invalid" (all documented, Documentation/Exceptions and
//     the validation rules of Documentation/WebServiceMethods).
// - UNAVAILABLE: any other `Message` (e.g. "System problems have prevented this request from
//   completing", "Problem accessing ABN Lookup database."), a non-2xx status, a timeout, a refused or
//   reset connection, a body that is not our JSONP, or a record that does not make sense.
import type { AbnRecord, AbnRegister, EntityType, RegisterResult } from './register.ts';

export interface AbrClientOptions {
  /** The authentication GUID ABR issued on registration (`ABR_GUID`). */
  guid: string;
  /** Where the JSON services are; ABR's own by default. Tests point this at a local stand-in. */
  baseUrl?: string;
  /** For the whole call, headers and body. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Told when ABR refuses the GUID, so an operator sees a configuration error rather than an outage. */
  logger?: AbrLogger;
}

/** The one logger call this client makes; a pino `Logger` fits. */
export interface AbrLogger {
  error(fields: Record<string, unknown>, message: string): void;
}

/** Every `detail` about a refused GUID starts with this, so operators and alerts can tell it apart. */
export const abrConfigurationError = 'ABR configuration error';

const defaultBaseUrl = 'https://abr.business.gov.au/json';
const defaultTimeoutMs = 10_000;
// Any valid JavaScript identifier would do; ABR pads the answer with whatever name is asked for.
const callbackName = 'pvsAbnLookup';

type Operation = 'AbnDetails' | 'AcnDetails';
type Failure = Extract<RegisterResult<never>, { ok: false }>;

export function createAbrClient(options: AbrClientOptions): AbnRegister {
  const guid = options.guid?.trim();
  if (!guid) throw new Error('ABR client: no GUID was configured (ABR_GUID).');
  const baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(baseUrl)) throw new Error(`ABR client: baseUrl must be an http(s) URL, got '${baseUrl}'.`);
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const redact = (text: string) => redactGuid(text, guid);

  async function lookup(operation: Operation, number: string): Promise<RegisterResult<AbnRecord>> {
    const kind = operation === 'AbnDetails' ? 'abn' : 'acn';
    const digits = number.replace(/\s/g, '');
    const length = kind === 'abn' ? 11 : 9;
    if (!new RegExp(`^\\d{${length}}$`).test(digits)) {
      return { ok: false, reason: 'NOT_FOUND', detail: `'${redact(number).slice(0, 30)}' is not a ${length}-digit ${kind.toUpperCase()}; ABR was not asked.` };
    }
    const url = new URL(`${baseUrl}/${operation}.aspx`);
    url.searchParams.set(kind, digits);
    url.searchParams.set('callback', callbackName);
    url.searchParams.set('guid', guid);

    let status: number;
    let contentType: string;
    let body: string;
    try {
      const res = await fetchImpl(url, {
        headers: { accept: 'text/javascript, application/javascript;q=0.9, */*;q=0.1' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = res.status;
      contentType = res.headers.get('content-type') ?? 'no content type';
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        return unavailable(`ABR ${operation} answered HTTP ${status} (${contentType}).`);
      }
      body = await res.text();
    } catch (err) {
      return unavailable(`ABR ${operation} ${describeNetworkError(err, timeoutMs)}.`);
    }

    const parsed = parseJsonp(body, callbackName);
    if (!parsed.ok) return unavailable(`ABR ${operation} answered HTTP ${status} with ${parsed.problem} (${contentType}, ${body.length} characters).`);
    return readPayload(operation, digits, parsed.value);
  }

  function readPayload(operation: Operation, searched: string, payload: Record<string, unknown>): RegisterResult<AbnRecord> {
    const message = text(payload.Message);
    if (message) {
      if (/\bguid\b/i.test(message)) {
        const detail = `${abrConfigurationError}: ABR ${operation} refused the configured GUID (ABR_GUID): "${redact(message)}". Lookups will fail until it is fixed.`;
        options.logger?.error({ provider: 'abr', operation, abrMessage: redact(message) }, detail);
        return unavailable(detail);
      }
      if (notFoundMessages.some((m) => m.test(message))) return { ok: false, reason: 'NOT_FOUND', detail: `ABR ${operation}: "${redact(message)}".` };
      return unavailable(`ABR ${operation} answered with an error: "${redact(message)}".`);
    }
    const abn = text(payload.Abn);
    if (!abn) return { ok: false, reason: 'NOT_FOUND', detail: `ABR ${operation} answered an empty record.` };

    const record = toAbnRecord(payload);
    if (typeof record === 'string') return unavailable(`ABR ${operation} answered a record that does not make sense: ${record}.`);
    const answeredFor = operation === 'AbnDetails' ? record.abn : record.acn;
    if (answeredFor !== searched) return unavailable(`ABR ${operation} answered for another number than the one asked.`);
    return { ok: true, value: record };
  }

  function unavailable(detail: string): Failure {
    return { ok: false, reason: 'UNAVAILABLE', detail: redact(detail) };
  }

  return {
    findByAbn: (abn) => lookup('AbnDetails', abn),
    findByAcn: (acn) => lookup('AcnDetails', acn),
  };
}

const notFoundMessages = [
  /^no records? found/i,
  /^search text is not a valid abn or acn/i,
  /^search string does not match search type/i,
  /^an (abn|acn|asic number) is invalid in (abn|acn|asic) search/i,
];

/**
 * The object inside `callback( … )`, allowing whitespace around it and a trailing `;`. Never
 * evaluated: a different callback name, anything around the call, or an inside that is not a JSON
 * object is refused with a description of what came instead.
 */
export function parseJsonp(body: string, callback: string): { ok: true; value: Record<string, unknown> } | { ok: false; problem: string } {
  const trimmed = body.replace(/^\uFEFF/, '').trim();
  const opening = `${callback}(`;
  if (!trimmed.startsWith(opening)) {
    const name = /^([A-Za-z_$][\w$.]*)\s*\(/.exec(trimmed)?.[1];
    return { ok: false, problem: name ? `JSONP for another callback ('${name.slice(0, 40)}')` : 'a body that is not JSONP' };
  }
  const closing = /\)\s*;?$/.exec(trimmed);
  if (!closing) return { ok: false, problem: 'JSONP that is not closed' };
  let value: unknown;
  try {
    value = JSON.parse(trimmed.slice(opening.length, closing.index));
  } catch {
    return { ok: false, problem: 'JSONP whose argument is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problem: 'JSONP whose argument is not an object' };
  return { ok: true, value: value as Record<string, unknown> };
}

const abnStatuses: Record<string, AbnRecord['status'] | undefined> = { active: 'ACTIVE', cancelled: 'CANCELLED' };

/** The record, or what is wrong with it. */
function toAbnRecord(p: Record<string, unknown>): AbnRecord | string {
  const abn = text(p.Abn);
  if (!/^\d{11}$/.test(abn)) return 'Abn is not 11 digits';
  const status = abnStatuses[text(p.AbnStatus).toLowerCase()];
  if (!status) return `AbnStatus '${text(p.AbnStatus).slice(0, 20)}' is neither Active nor Cancelled`;
  if (p.BusinessName !== undefined && p.BusinessName !== null && !Array.isArray(p.BusinessName)) return 'BusinessName is not a list';
  const code = text(p.EntityTypeCode).toUpperCase();
  const acn = text(p.Acn);
  return {
    abn,
    status,
    statusFrom: dateOrNull(p.AbnStatusEffectiveFrom),
    // Empty for a suppressed ABN: ABR then shows only the ABN, its status and GST.
    entityName: text(p.EntityName),
    entityType: entityTypeOf(code),
    entityTypeCode: code || null,
    entityTypeName: text(p.EntityTypeName) || null,
    acn: /^\d{9}$/.test(acn) ? acn : null,
    gstRegisteredFrom: dateOrNull(p.Gst),
    businessNames: ((p.BusinessName as unknown[] | null | undefined) ?? []).map(businessNameOf).filter((n) => n !== ''),
    state: text(p.AddressState).toUpperCase() || null,
    postcode: text(p.AddressPostcode) || null,
  };
}

// ABR's entity type codes (abr.business.gov.au/Documentation/ReferenceData, "Entity types"), sorted
// by the legal form that matters to a lookup. Government bodies go by their form: a State Government
// Private Company is a company. Super funds, including self-managed ones (SMF) and pooled
// superannuation trusts (PST), are OTHER: they are funds under the super rules, not trading trusts.
// FPT is a Family Partnership, not a trust.
const companyCodes = new Set(['PRV', 'PUB', 'CCB', 'CCR', 'CGC', 'LCB', 'LCR', 'LGC', 'SCB', 'SCR', 'SGC', 'TCB', 'TCR']);
const partnershipCodes = new Set(['PTR', 'FPT', 'LPT', 'CGP', 'LGP', 'SGP', 'TGP', 'CCL', 'LCL', 'SCL', 'TCL']);
const trustCodes = new Set([
  'TRT', 'DTT', 'DIT', 'DST', 'FXT', 'FUT', 'HYT', 'PUT', 'PQT', 'PTT', 'CUT', 'CMT', 'FHS',
  'CGT', 'CCT', 'CCU', 'CTC', 'CTD', 'CTF', 'CTH', 'CTI', 'CTL', 'CTQ', 'CTT', 'CTU',
  'LGT', 'LCT', 'LCU', 'LTC', 'LTD', 'LTF', 'LTH', 'LTI', 'LTL', 'LTQ', 'LTT', 'LTU',
  'SGT', 'SCT', 'SCU', 'STC', 'STD', 'STF', 'STH', 'STI', 'STL', 'STQ', 'STT', 'STU',
  'TGT', 'TCT', 'TCU', 'TTC', 'TTD', 'TTF', 'TTH', 'TTI', 'TTL', 'TTQ', 'TTT', 'TTU',
]);

export function entityTypeOf(code: string): EntityType {
  const c = code.trim().toUpperCase();
  if (c === 'IND') return 'SOLE_TRADER';
  if (companyCodes.has(c)) return 'COMPANY';
  if (partnershipCodes.has(c)) return 'PARTNERSHIP';
  if (trustCodes.has(c)) return 'TRUST';
  return 'OTHER';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function dateOrNull(value: unknown): string | null {
  const v = text(value);
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null;
}

/** Business names come as strings; the object form some versions use is read too. */
function businessNameOf(entry: unknown): string {
  if (typeof entry === 'string') return entry.trim();
  if (entry && typeof entry === 'object') return text((entry as Record<string, unknown>).OrganisationName);
  return '';
}

/** What went wrong on the wire, in words an operator can act on. */
function describeNetworkError(err: unknown, timeoutMs: number): string {
  const name = err instanceof Error ? err.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return `did not answer within ${timeoutMs} ms`;
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  const message = cause?.message ?? (err instanceof Error ? err.message : String(err));
  const reason = cause?.code && !message.includes(cause.code) ? `${cause.code}: ${message}` : message;
  return `could not be reached (${reason})`;
}

/** The GUID as given or URL-encoded, in any letter case, replaced. */
function redactGuid(text: string, guid: string): string {
  const forms = [...new Set([guid, encodeURIComponent(guid)])].map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.replace(new RegExp(forms.join('|'), 'gi'), '[guid]');
}
