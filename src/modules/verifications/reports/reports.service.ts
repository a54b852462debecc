// The two PDF reports of a verification (docs/verifications.md "Reports"). Asking for one answers a signed
// URL valid 15 minutes (SPEC rule 3); opening it renders the PDF there and then, from the request as it is
// and the people's identities read live from the identity provider. Nothing is stored: not the PDF, not
// the identities. Each rendering is written to the evidence audit trail, as an evidence read is.
//
// A report is whole or not served: when the identity provider cannot give a verified person's identity,
// or the register the date of birth of a lookup-bound person's party (read live: PVS never keeps it,
// decision 122), the URL answers 503 (try again), never a report with holes in it.
import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/database.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import type { UrlSigner } from '../../../platform/signed-urls.ts';
import { tenantOf, type Tenant } from '../../../platform/tenancy.ts';
import type { IdentityEvidence, IdentityProvider } from '../../../providers/identity/identity-provider.ts';
import type { LookupService } from '../../lookups/lookups.service.ts';
import type { PartnerService } from '../../partners/partners.service.ts';
import type { EvidenceReader, EvidenceService } from '../evidence.service.ts';
import { amlOutcomeOf } from '../outcomes.ts';
import { answeredDetails, sameRegisterDateOfBirth, sameRegisterName } from '../person-details.ts';
import * as repo from '../verifications.repository.ts';
import { renderEntityReport } from './entity-report.ts';
import { renderIndividualReport } from './individual-report.ts';
import type { EntityReportModel, IndividualReportModel, ReportHeader, ReportIdentity, ReportIndividual, ReportOwnership, ReportRequest } from './report-model.ts';

/** SPEC Limits: report URL validity. */
export const reportUrlSeconds = 15 * 60;

export const entityReportPath = (requestId: string) => `/reports/v1/verifications/${requestId}/report.pdf`;
export const individualReportPath = (requestId: string, individualId: string) => `/reports/v1/verifications/${requestId}/individuals/${individualId}/report.pdf`;

/** The register's names of the request's parties, and the dates of birth it holds now, by idv entity id. */
type RegisterNames = Map<string, { givenNames: string; familyName: string }>;
type RegisterBirthDates = Map<string, string | null>;
/** The identity provider's answer for one individual, for a rendering. */
type Identity = { kind: 'verified'; evidence: IdentityEvidence } | { kind: 'none'; note: string };

/** A source the report needs did not answer: 503, and the rendering is recorded as UPSTREAM_UNAVAILABLE. */
class SourceUnavailableError extends AppError {
  constructor(what: string) {
    super('SERVICE_UNAVAILABLE', `${what}; open the same URL again in a minute.`, { retryAfter: 60 });
  }
}

const identityUnavailable = () => new SourceUnavailableError('The identity provider is not answering, so the report cannot print who the people are');
const registerUnavailable = () => new SourceUnavailableError('The register is not answering, so the report cannot compare the dates of birth the people entered with the register’s');

export function createReportService(deps: {
  db: Database;
  clock: Clock;
  identity: IdentityProvider;
  lookups: Pick<LookupService, 'entityNameOf' | 'reportFactsOf' | 'registerNamesOf' | 'registerPeopleOf'>;
  partners: Pick<PartnerService, 'getOwn'>;
  evidence: Pick<EvidenceService, 'audit' | 'individualOf'>;
  signer: UrlSigner;
}) {
  const { db, clock } = deps;

  async function requestOf(tenant: Tenant, requestId: string): Promise<repo.RequestRow> {
    const request = await repo.findRequest(db, tenant, requestId);
    if (!request) throw notFound(`Verification request ${requestId}`);
    return request;
  }

  function entityReportAllowed(request: repo.RequestRow): void {
    if (request.mode !== 'AUSTRAC_CDD') {
      throw new AppError('INVALID_STATE', `Verification request ${request.id} is a TPB_POI request; the entity report exists for AUSTRAC_CDD only. Ask for each individual’s report instead.`);
    }
  }

  /** The URL's permission, checked before anything is read; the request it names, found across partners. */
  async function openUrl(path: string, query: Record<string, string | undefined>, requestId: string) {
    const check = deps.signer.verify(path, query);
    if (!check.ok) {
      throw new AppError(
        'FORBIDDEN',
        check.reason === 'expired'
          ? 'This report URL has expired (they last 15 minutes); ask for a new one with POST …/report.'
          : 'This report URL is not one PVS made, or it was changed; ask for a new one with POST …/report.',
      );
    }
    const request = (await repo.findRequestById(db, requestId))!;
    return { request, tenant: tenantOf(request.partner_id) };
  }

  async function identityOf(individual: repo.IndividualRow): Promise<Identity> {
    if (!individual.subject_ref) {
      const deleted = individual.subject_forgotten_at?.toISOString().slice(0, 10);
      return { kind: 'none', note: deleted ? `The person’s details and documents were deleted on ${deleted}, under PVS’s retention rules.` : 'The person has not given their details yet.' };
    }
    const answer = await deps.identity.evidence(individual.subject_ref, { includeScans: false });
    if (!answer.ok && answer.kind === 'unavailable') throw identityUnavailable();
    if (!answer.ok) return { kind: 'none', note: 'The identity provider holds nothing for this person any more.' };
    if (!answer.evidence) return { kind: 'none', note: 'The person has not submitted their details for checking yet.' };
    return { kind: 'verified', evidence: answer.evidence };
  }

  async function header(tenant: Tenant, title: string, requestId: string): Promise<ReportHeader> {
    return { title, verificationRequestId: requestId, generatedAt: clock.now(), partnerName: (await deps.partners.getOwn(tenant)).name };
  }

  /** The entity the request is about: its own name, or for a lookup-bound request (which holds none) the lookup's, as the hosted page says it. */
  async function entityNameOf(tenant: Tenant, request: repo.RequestRow): Promise<string | null> {
    return request.entity_name ?? (request.lookup_id ? await deps.lookups.entityNameOf(db, tenant, request.lookup_id) : null);
  }

  function requestPart(request: repo.RequestRow): ReportRequest {
    return {
      verificationRequestId: request.id,
      mode: request.mode,
      status: request.status,
      riskLevel: request.risk_level,
      entityName: request.entity_name,
      lookupRequestId: request.lookup_id,
      createdAt: request.created_at,
      completedAt: request.completed_at,
      issues: request.issue_list,
    };
  }

  /**
   * The dates of birth the register holds now for the parties of those lookup-bound individuals who have
   * entered theirs: read live (never kept), for this rendering only.
   */
  async function registerBirthDates(tenant: Tenant, lookupId: string | null, individuals: repo.IndividualRow[], identities: Identity[]): Promise<RegisterBirthDates> {
    const parties = individuals.flatMap((individual, i) => (individual.idv_entity_id && identities[i]!.kind === 'verified' ? [individual.idv_entity_id] : []));
    if (!lookupId || parties.length === 0) return new Map();
    const read = await deps.lookups.registerPeopleOf(tenant, lookupId, parties);
    if (!read.ok) throw registerUnavailable();
    return new Map([...read.people].map(([id, person]) => [id, person.dateOfBirth]));
  }

  function individualPart(individual: repo.IndividualRow, identity: Identity, decision: repo.DecisionRow | undefined, registerNames: RegisterNames, birthDates: RegisterBirthDates): ReportIndividual {
    const details = identity.kind === 'verified' ? identity.evidence.details : undefined;
    const register = individual.idv_entity_id ? registerNames.get(individual.idv_entity_id) : undefined;
    const registerBorn = (individual.idv_entity_id && birthDates.get(individual.idv_entity_id)) || null;
    return {
      individualId: individual.id,
      externalId: individual.external_id,
      role: individual.role,
      roleDescription: individual.role_description,
      name: details ? [details.firstName, details.middleName, details.lastName].filter(Boolean).join(' ') : null,
      registerName: register ? `${register.givenNames} ${register.familyName}` : null,
      registerNameMatches: details && register ? sameRegisterName(details, register) : null,
      dateOfBirth: details?.dateOfBirth ?? null,
      registerDateOfBirth: details ? registerBorn : null,
      registerDateOfBirthMatches: details ? sameRegisterDateOfBirth(details.dateOfBirth, registerBorn) : null,
      status: individual.status,
      riskLevel: individual.risk_level ?? 'UNKNOWN',
      attemptCount: individual.attempt_count,
      maxAttempts: individual.max_attempts,
      createdAt: individual.created_at,
      completedAt: individual.completed_at,
      manualOverride: individual.manual_override,
      decision: decision ? { decision: decision.decision, decidedBy: decision.operator_id, decidedAt: decision.decided_at } : null,
    };
  }

  function identityPart(identity: Identity): ReportIdentity | null {
    if (identity.kind !== 'verified') return null;
    const { details, document, verifiedAt, attempt } = identity.evidence;
    return {
      ...answeredDetails(details),
      document: { type: document.type, number: document.number, issuingCountry: document.issuingCountry, issuingState: document.issuingState ?? null, expiryDate: document.expiryDate ?? null },
      verifiedAt,
      attempt,
    };
  }

  async function lookupPart(tenant: Tenant, lookupId: string | null): Promise<Pick<EntityReportModel, 'registry' | 'ownership'> & { registerNames: RegisterNames }> {
    const facts = lookupId ? await deps.lookups.reportFactsOf(tenant, lookupId) : undefined;
    if (!facts) return { registry: null, ownership: null, registerNames: new Map() };
    const registerNames = await deps.lookups.registerNamesOf(tenant, lookupId!);
    const structure = facts.structure;
    const nameOf = new Map(structure?.nodes.map((n) => [n.id, n.name]));
    const ownership: ReportOwnership | null = structure && {
      structureAsOf: facts.structureAsOf,
      ownershipSource: structure.ownershipSource,
      completeness: structure.completeness,
      reason: structure.reason,
      nodes: structure.nodes.map((n) => ({ id: n.id, kind: n.kind, name: n.name, acn: n.acn ?? null, abn: n.abn ?? null })),
      edges: structure.edges,
      beneficialOwners: structure.beneficialOwners.map((o) => ({ nodeId: o.nodeId, name: nameOf.get(o.nodeId) ?? o.idvEntityId, ownershipPercent: o.ownershipPercent })),
      blockedNodes: structure.blockedNodes,
      unlinkedOwners: structure.unlinkedOwners,
    };
    return { registry: facts.registry, ownership, registerNames };
  }

  /** Renders with `work`, and writes the rendering (or the provider's outage that stopped it) to the audit trail. */
  async function audited(reader: EvidenceReader, target: { requestId: string; individualId: string | null }, kind: 'ENTITY_REPORT' | 'INDIVIDUAL_REPORT', work: () => Promise<Buffer>) {
    try {
      const pdf = await work();
      await deps.evidence.audit(reader, target, kind, 'OK', null);
      return pdf;
    } catch (error) {
      if (error instanceof SourceUnavailableError) await deps.evidence.audit(reader, target, kind, 'UPSTREAM_UNAVAILABLE', null);
      throw error;
    }
  }

  return {
    async issueEntityReport(tenant: Tenant, apiClientId: string, requestId: string) {
      entityReportAllowed(await requestOf(tenant, requestId));
      const { url, expiresAt } = deps.signer.sign(entityReportPath(requestId), { client: apiClientId }, reportUrlSeconds);
      return { url, expiresAt: expiresAt.toISOString() };
    },

    async issueIndividualReport(tenant: Tenant, apiClientId: string, requestId: string, individualId: string) {
      await deps.evidence.individualOf(tenant, requestId, individualId);
      const { url, expiresAt } = deps.signer.sign(individualReportPath(requestId, individualId), { client: apiClientId }, reportUrlSeconds);
      return { url, expiresAt: expiresAt.toISOString() };
    },

    /** Opens an entity report URL: the PDF, rendered now. */
    async entityReport(requestId: string, query: Record<string, string | undefined>, httpRequestId: string): Promise<Buffer> {
      const { request, tenant } = await openUrl(entityReportPath(requestId), query, requestId);
      entityReportAllowed(request);
      const reader = { tenant, apiClientId: query.client!, httpRequestId };
      return audited(reader, { requestId, individualId: null }, 'ENTITY_REPORT', async () => {
        const individuals = await repo.listIndividuals(db, [request.id]);
        const decisions = new Map((await repo.listDecisions(db, individuals.map((i) => i.id))).map((d) => [d.individual_id, d]));
        const identities = await Promise.all(individuals.map(identityOf));
        const { registerNames, ...lookup } = await lookupPart(tenant, request.lookup_id);
        const birthDates = await registerBirthDates(tenant, request.lookup_id, individuals, identities);
        const model: EntityReportModel = {
          header: await header(tenant, 'Entity due diligence report', request.id),
          request: requestPart(request),
          ...lookup,
          individuals: individuals.map((individual, i) => individualPart(individual, identities[i]!, decisions.get(individual.id), registerNames, birthDates)),
        };
        return renderEntityReport(model);
      });
    },

    /** Opens an individual report URL: the PDF, rendered now. */
    async individualReport(requestId: string, individualId: string, query: Record<string, string | undefined>, httpRequestId: string): Promise<Buffer> {
      const { request, tenant } = await openUrl(individualReportPath(requestId, individualId), query, requestId);
      const individual = await deps.evidence.individualOf(tenant, requestId, individualId);
      const reader = { tenant, apiClientId: query.client!, httpRequestId };
      return audited(reader, { requestId, individualId }, 'INDIVIDUAL_REPORT', async () => {
        const identity = await identityOf(individual);
        const [decision] = await repo.listDecisions(db, [individual.id]);
        const registerNames: RegisterNames = request.lookup_id ? await deps.lookups.registerNamesOf(tenant, request.lookup_id) : new Map();
        const birthDates = await registerBirthDates(tenant, request.lookup_id, [individual], [identity]);
        const model: IndividualReportModel = {
          header: await header(tenant, 'Individual verification report', request.id),
          request: { verificationRequestId: request.id, mode: request.mode, entityName: await entityNameOf(tenant, request), lookupRequestId: request.lookup_id },
          individual: individualPart(individual, identity, decision, registerNames, birthDates),
          identity: identityPart(identity),
          identityNote: identity.kind === 'none' ? identity.note : null,
          checks: individual.check_results,
          aml: amlOutcomeOf(individual.check_results),
          attempts: (await repo.listAttempts(db, individual.id)).map((a) => ({ number: a.number, status: a.status, submittedAt: a.submitted_at, checkedAt: a.checked_at })),
          startedAt: await repo.firstOpenedAt(db, individual.id),
        };
        return renderIndividualReport(model);
      });
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
