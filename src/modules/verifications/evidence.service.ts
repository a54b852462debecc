// The evidence endpoints (SPEC rule 1): what the identity provider holds on an individual's latest checked
// attempt, and who on the screening lists the claimed identity may be. Both are fetched live on every call
// and kept nowhere: not in a table, not in a log line. What is kept is that the read happened
// (evidence_reads: who, when, which individual, what it answered).
//
// Partners read through the API, scoped to their own individuals; PVS operators read any individual from
// the console's review page. Both reads land in the same trail, each naming its reader.
//
// Always an answer, never an error, once the individual is found: NOT_AVAILABLE before the person has
// been checked, UPSTREAM_UNAVAILABLE when the provider or the screening engine does not answer or when
// the kill switch (EVIDENCE_DETAIL_ENABLED, a runtime setting) is off.
//
// Operators also see the party a lookup-bound individual stands for, as the register holds it now (its
// date of birth read live for the view, decision 122), beside what the person entered.
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { notFound } from '../../platform/errors.ts';
import { toPage } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { tenantOf, type Tenant } from '../../platform/tenancy.ts';
import type { IdentityEvidence, IdentityImage, IdentityProvider, ProviderResults } from '../../providers/identity/identity-provider.ts';
import type { LookupService } from '../lookups/lookups.service.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import type { RuntimeSettings } from '../settings/runtime-settings.ts';
import * as reads from './evidence-reads.repository.ts';
import type { AmlMatches, DocumentDetails, EvidenceStatus } from './evidence.schemas.ts';
import type { MrzEvidence } from './mrz/mrz-evidence.ts';
import { enteredOf } from './mrz/mrz-compare.ts';
import { answeredDetails } from './person-details.ts';
import * as repo from './verifications.repository.ts';

/** Who is reading: the partner, the API client whose token it is, and the HTTP request. */
export interface EvidenceReader {
  tenant: Tenant;
  apiClientId: string;
  httpRequestId: string;
}

/** A PVS operator reading in the console: any partner's individual, named by request and individual. */
export interface OperatorEvidenceReader {
  operatorId: string;
  httpRequestId: string;
}

type AnyReader = EvidenceReader | OperatorEvidenceReader;

const isOperator = (reader: AnyReader): reader is OperatorEvidenceReader => 'operatorId' in reader;

/** The party a lookup-bound individual stands for, as the register holds it now; NOT_BOUND for a hand-built one. */
export type RegisterRecord =
  | { status: 'OK'; name: { givenNames: string; familyName: string }; dateOfBirth: string | null }
  | { status: 'NOT_BOUND' }
  | { status: 'UPSTREAM_UNAVAILABLE'; message: string };

const messages = {
  switchedOff: 'Evidence detail is switched off for now (EVIDENCE_DETAIL_ENABLED); try again later.',
  noSubject: 'The person has not given any details yet: there is no evidence until they submit.',
  deleted: (at: Date) => `The identity provider was told to delete this person’s details and documents on ${at.toISOString().slice(0, 10)}, under PVS’s retention rules: there is no evidence to show.`,
  notChecked: 'The person has not submitted yet, or their checks have not finished: there is no evidence until an attempt is checked.',
  forgotten: 'The identity provider holds nothing for this individual.',
  providerDown: 'The identity provider is not answering; try again later.',
  screeningDown: 'The screening engine is not answering (no list loaded, or the list cannot be read); try again later.',
  registerDown: 'The register is not answering, so its record of this party cannot be shown; try again later.',
} as const;

export function createEvidenceService(deps: {
  db: Database;
  clock: Clock;
  identity: IdentityProvider;
  screening: Pick<ScreeningService, 'screenPerson'>;
  settings: Pick<RuntimeSettings, 'evidenceDetailEnabled'>;
  /** PVS's own reading of a passport's machine-readable zone, compared with what the person entered. */
  mrz: MrzEvidence;
  /** The register's record of a lookup-bound individual's party, for the operator's review. */
  lookups: Pick<LookupService, 'registerPeopleOf'>;
}) {
  const { db, clock } = deps;

  async function individualOf(tenant: Tenant, requestId: string, individualId: string): Promise<repo.IndividualRow> {
    const individual = await repo.findIndividual(db, individualId);
    if (!individual || individual.partner_id !== tenant.partnerId || individual.request_id !== requestId) {
      throw notFound(`Individual ${individualId} of verification request ${requestId}`);
    }
    return individual;
  }

  /** The individual an operator asked for: any partner's, but it must belong to the request named. */
  async function anyIndividual(reader: AnyReader, requestId: string, individualId: string): Promise<repo.IndividualRow> {
    if (!isOperator(reader)) return individualOf(reader.tenant, requestId, individualId);
    const individual = await repo.findIndividual(db, individualId);
    if (!individual || individual.request_id !== requestId) throw notFound(`Individual ${individualId} of verification request ${requestId}`);
    return individual;
  }

  /** What was read, by whom: a request's individual, or the whole request (the entity report). */
  async function recordRead(
    reader: AnyReader,
    target: { partnerId: string; requestId: string; individualId: string | null },
    kind: reads.EvidenceKind,
    status: EvidenceStatus,
    includeScans: boolean | null,
  ): Promise<void> {
    const operator = isOperator(reader);
    await reads.insertRead(db, {
      id: newId('evidenceRead'),
      partner_id: target.partnerId,
      api_client_id: operator ? null : reader.apiClientId,
      operator_id: operator ? reader.operatorId : null,
      verification_request_id: target.requestId,
      individual_id: target.individualId,
      kind,
      include_scans: includeScans,
      status,
      http_request_id: reader.httpRequestId,
      read_at: clock.now(),
    });
  }

  /** A partner's read or report rendering, for its own partner. */
  const audit = (reader: EvidenceReader, target: { requestId: string; individualId: string | null }, kind: reads.EvidenceKind, status: EvidenceStatus, includeScans: boolean | null) =>
    recordRead(reader, { ...target, partnerId: reader.tenant.partnerId }, kind, status, includeScans);

  type Fetched = { status: 'OK'; evidence: IdentityEvidence } | { status: Exclude<EvidenceStatus, 'OK'>; message: string };

  /** The provider's evidence of the latest checked attempt, or why there is none. */
  async function fetchEvidence(individual: repo.IndividualRow, includeScans: boolean): Promise<Fetched> {
    if (!(await deps.settings.evidenceDetailEnabled())) return { status: 'UPSTREAM_UNAVAILABLE', message: messages.switchedOff };
    if (!individual.subject_ref) return { status: 'NOT_AVAILABLE', message: individual.subject_forgotten_at ? messages.deleted(individual.subject_forgotten_at) : messages.noSubject };
    const answer = await deps.identity.evidence(individual.subject_ref, { includeScans });
    if (!answer.ok) return answer.kind === 'not_found' ? { status: 'NOT_AVAILABLE', message: messages.forgotten } : { status: 'UPSTREAM_UNAVAILABLE', message: messages.providerDown };
    if (!answer.evidence) return { status: 'NOT_AVAILABLE', message: messages.notChecked };
    return { status: 'OK', evidence: answer.evidence };
  }

  const base = (individual: repo.IndividualRow, status: EvidenceStatus, message: string | null) => ({
    status,
    verificationRequestId: individual.request_id,
    individualId: individual.id,
    message,
    retrievedAt: clock.now().toISOString(),
  });

  const image = (kind: DocumentDetails['images'][number]['kind'], picture: IdentityImage | undefined) =>
    picture ? [{ kind, contentType: picture.contentType, byteLength: picture.bytes.length, data: picture.bytes.toString('base64') }] : [];

  /** The provider's own results, field by field: the answer carries what its schema names and nothing else. */
  const providerResults = (results: ProviderResults | undefined): Pick<DocumentDetails, 'providerResults'> =>
    results
      ? {
          providerResults: {
            provider: results.provider,
            reports: results.reports.map(({ name, status, result, subResult, breakdown }) => ({ name, status, result, subResult, breakdown: breakdown.map(({ item, result }) => ({ item, result })) })),
          },
        }
      : {};

  return {
    async documentDetails(reader: AnyReader, requestId: string, individualId: string, options: { includeScans: boolean }): Promise<DocumentDetails> {
      const individual = await anyIndividual(reader, requestId, individualId);
      // The front image is needed for the machine-readable zone even when the partner wants no scans.
      const fetched = await fetchEvidence(individual, true);
      let answer: DocumentDetails;
      if (fetched.status !== 'OK') {
        answer = { ...base(individual, fetched.status, fetched.message), attempt: null, claimedIdentity: null, documents: [], images: [], faceComparisons: [], checks: [] };
      } else {
        const { evidence } = fetched;
        const { details, document } = evidence;
        const mrz = document.type === 'PASSPORT' && document.front ? await deps.mrz.read(document.front, enteredOf(details, document, deps.identity.documentFields)) : null;
        answer = {
          ...base(individual, 'OK', null),
          attempt: { number: evidence.attempt, verifiedAt: evidence.verifiedAt.toISOString() },
          claimedIdentity: answeredDetails(details),
          documents: [
            {
              type: document.type,
              number: document.number,
              issuingCountry: document.issuingCountry,
              issuingState: document.issuingState ?? null,
              cardNumber: document.cardNumber ?? null,
              expiryDate: document.expiryDate ?? null,
              machineReadableZone: mrz,
            },
          ],
          images: options.includeScans ? [...image('DOCUMENT_FRONT', document.front), ...image('DOCUMENT_BACK', document.back), ...image('SELFIE', evidence.selfie)] : [],
          faceComparisons: [evidence.faceMatch],
          checks: evidence.checks.map(({ name, checkType, result, code, message }) => ({ name, checkType, result, code, ...(message ? { message } : {}) })),
          ...providerResults(evidence.providerResults),
        };
      }
      await recordRead(reader, { partnerId: individual.partner_id, requestId, individualId }, 'DOCUMENT_DETAILS', answer.status, options.includeScans);
      return answer;
    },

    async amlMatches(reader: AnyReader, requestId: string, individualId: string): Promise<AmlMatches> {
      const individual = await anyIndividual(reader, requestId, individualId);
      const fetched = await fetchEvidence(individual, false);
      let answer: AmlMatches;
      if (fetched.status !== 'OK') {
        answer = { ...base(individual, fetched.status, fetched.message), listVersion: null, screened: null, matches: [] };
      } else {
        // The same subject the check job screened, against the list as it is now.
        const { claimed } = fetched.evidence;
        const countries = [...new Set([claimed.country, claimed.residenceCountry])];
        const result = await deps.screening.screenPerson({ names: [claimed.fullName], dateOfBirth: claimed.dateOfBirth, countries });
        answer =
          result.outcome === 'UNAVAILABLE'
            ? { ...base(individual, 'UPSTREAM_UNAVAILABLE', messages.screeningDown), listVersion: null, screened: null, matches: [] }
            : {
                ...base(individual, 'OK', null),
                listVersion: result.listVersion,
                screened: { name: claimed.fullName, dateOfBirth: claimed.dateOfBirth, countries },
                matches: result.matches.map(({ entry, matchedName, score, features }) => ({
                  entryId: entry.entryId,
                  list: entry.list,
                  source: entry.source,
                  name: entry.name,
                  matchedName,
                  aliases: entry.aliases,
                  datesOfBirth: entry.datesOfBirth,
                  countries: entry.countries,
                  categories: entry.categories,
                  score,
                  features,
                })),
              };
      }
      await recordRead(reader, { partnerId: individual.partner_id, requestId, individualId }, 'AML_MATCHES', answer.status, null);
      return answer;
    },

    /**
     * For an operator's review: the party a lookup-bound individual stands for, as the register holds it
     * now. Read live for the view and kept nowhere; the view itself is in the trail by its document read.
     */
    async registerRecord(reader: OperatorEvidenceReader, requestId: string, individualId: string): Promise<RegisterRecord> {
      const individual = await anyIndividual(reader, requestId, individualId);
      const request = individual.idv_entity_id ? await repo.findRequestById(db, individual.request_id) : undefined;
      if (!individual.idv_entity_id || !request?.lookup_id) return { status: 'NOT_BOUND' };
      if (!(await deps.settings.evidenceDetailEnabled())) return { status: 'UPSTREAM_UNAVAILABLE', message: messages.switchedOff };
      const read = await deps.lookups.registerPeopleOf(tenantOf(individual.partner_id), request.lookup_id, [individual.idv_entity_id]);
      if (!read.ok) return { status: 'UPSTREAM_UNAVAILABLE', message: messages.registerDown };
      const party = read.people.get(individual.idv_entity_id);
      if (!party) return { status: 'NOT_BOUND' };
      return { status: 'OK', name: { givenNames: party.givenNames, familyName: party.familyName }, dateOfBirth: party.dateOfBirth };
    },

    /** The audit trail for operators, newest first, in the house's page shape. */
    async listReads(filter: reads.ReadFilter) {
      const page = toPage(await reads.listReads(db, filter), filter);
      return {
        ...page,
        data: page.data.map((r) => ({
          id: r.id,
          partnerId: r.partner_id,
          apiClientId: r.api_client_id,
          operatorId: r.operator_id,
          verificationRequestId: r.verification_request_id,
          individualId: r.individual_id,
          kind: r.kind,
          includeScans: r.include_scans,
          status: r.status,
          requestId: r.http_request_id,
          readAt: r.read_at.toISOString(),
        })),
      };
    },

    /** For the reports: the same audit, for a rendering. */
    audit,
    individualOf,
  };
}

export type EvidenceService = ReturnType<typeof createEvidenceService>;
