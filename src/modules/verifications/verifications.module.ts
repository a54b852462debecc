// The verifications module's wiring: verification requests and their links, the person's hosted session,
// the check job (the identity provider the composition root chose, PVS's own passport MRZ reading, AML
// screening), operators' decisions, the evidence endpoints, the PDF reports and the hourly identity
// retention run (see README.md).
import type { Config } from '../../config.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Idempotency } from '../../platform/http/idempotency.ts';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Module } from '../../platform/module.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { createUrlSigner } from '../../platform/signed-urls.ts';
import type { KeyRing } from '../../platform/keys/key-ring.ts';
import { tenantOf } from '../../platform/tenancy.ts';
import type { IdentityProvider } from '../../providers/identity/identity-provider.ts';
import type { ChargeService } from '../billing/charges.service.ts';
import type { LookupService } from '../lookups/lookups.service.ts';
import type { PartnerService } from '../partners/partners.service.ts';
import type { ScreeningService } from '../screening/screening.service.ts';
import type { RuntimeSettings } from '../settings/runtime-settings.ts';
import { registerEvidenceReadRoutes } from './evidence-reads.routes.ts';
import { registerEvidenceRoutes } from './evidence.routes.ts';
import { registerIdentityNotificationRoutes } from './identity-notifications.routes.ts';
import { createEvidenceService, type EvidenceService } from './evidence.service.ts';
import { createIdentityRetention } from './identity-retention.ts';
import { createMrzEvidence } from './mrz/mrz-evidence.ts';
import { registerReportFileRoutes } from './reports/report-files.routes.ts';
import { createReportService, type ReportService } from './reports/reports.service.ts';
import { createVerificationCheckService, type VerificationCheckService } from './verification-checks.service.ts';
import { registerVerificationDecisionRoutes } from './verification-decisions.routes.ts';
import { registerVerificationSessionRoutes } from './verification-sessions.routes.ts';
import { createVerificationSessionService, type VerificationSessionService } from './verification-sessions.service.ts';
import { checkJobKey, identityRetentionJob, verificationCheckJob } from './verifications.jobs.ts';
import { findIndividualBySubject } from './verifications.repository.ts';
import { registerVerificationRoutes } from './verifications.routes.ts';
import { createVerificationService, type VerificationService } from './verifications.service.ts';

export { verificationJobSpecs } from './verifications.jobs.ts';

export interface VerificationModuleDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  outbox: Outbox;
  queue: JobQueue;
  identity: IdentityProvider;
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'VERIFICATION_LINK_DAYS' | 'VERIFICATION_MAX_ATTEMPTS' | 'IDENTITY_ABANDONED_DAYS' | 'IDENTITY_RETENTION_DAYS'>;
  /** Link and session token digests, report URL signatures (platform/keys). */
  keyRing: Pick<KeyRing, 'digester' | 'macKeys'>;
  idempotency: Idempotency;
  charges: Pick<ChargeService, 'gate' | 'chargeAccepted' | 'chargeNewWork'>;
  screening: Pick<ScreeningService, 'screenPerson'>;
  /** The evidence kill switch. */
  settings: Pick<RuntimeSettings, 'evidenceDetailEnabled'>;
  /** A request bound to a lookup, what its reports print of that lookup, and its parties as the register holds them now. */
  lookups: Pick<LookupService, 'bindingOf' | 'entityNameOf' | 'reportFactsOf' | 'registerNamesOf' | 'registerPeopleOf'>;
  /** The partner's name on the hosted pages and the reports. */
  partners: Pick<PartnerService, 'getOwn'>;
}

export interface VerificationServices {
  verifications: VerificationService;
  verificationSessions: VerificationSessionService;
  verificationChecks: VerificationCheckService;
  evidence: EvidenceService;
  reports: ReportService;
}

export function createVerificationModule(deps: VerificationModuleDeps): Module<VerificationServices> {
  const { db, clock, outbox, identity, screening, config } = deps;
  // A partner's name is set when it is made and never changes: read once per partner, then kept.
  const partnerNames = new Map<string, string>();
  const partnerName = async (partnerId: string) => {
    let name = partnerNames.get(partnerId);
    if (name === undefined) {
      name = (await deps.partners.getOwn(tenantOf(partnerId))).name;
      if (partnerNames.size >= 10_000) partnerNames.clear();
      partnerNames.set(partnerId, name);
    }
    return name;
  };
  const linkTokens = deps.keyRing.digester('verification-link-tokens');
  const verificationSessions = createVerificationSessionService({
    db,
    clock,
    outbox,
    linkTokens,
    sessionTokens: deps.keyRing.digester('verification-session-tokens'),
    sessionLifetimeHours: 24,
    identity,
    charges: deps.charges,
    queue: deps.queue,
    partnerName,
    lookups: deps.lookups,
  });
  // One OCR worker per process, started on the first passport it reads; closed with the services.
  const mrz = createMrzEvidence();
  const checks = createVerificationCheckService({ db, clock, outbox, identity, screening, mrz, lookups: deps.lookups, logger: deps.logger.child({ module: 'verifications' }) });
  const evidence = createEvidenceService({ db, clock, identity, screening, settings: deps.settings, mrz, lookups: deps.lookups });
  const reports = createReportService({
    db,
    clock,
    identity,
    lookups: deps.lookups,
    partners: deps.partners,
    evidence,
    signer: createUrlSigner({ keys: deps.keyRing.macKeys('report-urls'), clock, baseUrl: config.PUBLIC_BASE_URL }),
  });
  const verifications = createVerificationService({
    db,
    clock,
    outbox,
    linkTokens,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    linkLifetimeDays: config.VERIFICATION_LINK_DAYS,
    maxAttempts: config.VERIFICATION_MAX_ATTEMPTS,
    lookups: deps.lookups,
  });

  /** A provider's notification that an attempt's checks finished: its job runs now rather than at its next poll. */
  async function checksFinished(subjectRef: string, attempt: number): Promise<boolean> {
    const individual = await findIndividualBySubject(db, subjectRef);
    return individual ? deps.queue.wake(db, checkJobKey(individual.id, attempt)) : false;
  }

  const retention = createIdentityRetention({
    db,
    clock,
    identity,
    logger: deps.logger.child({ module: 'verifications' }),
    abandonedDays: config.IDENTITY_ABANDONED_DAYS,
    retentionDays: config.IDENTITY_RETENTION_DAYS,
  });

  const jobs = [
    defineJob({ ...verificationCheckJob, concurrency: 4, handler: (payload, ctx) => checks.check(payload.individualId, payload.attempt, ctx) }),
    defineJob({
      ...identityRetentionJob,
      concurrency: 1,
      handler: async () => {
        await retention.run();
      },
    }),
  ] as JobDefinition[];

  return {
    services: { verifications, verificationSessions, verificationChecks: checks, evidence, reports },
    jobs,
    routes: {
      public: (app) => registerVerificationSessionRoutes(app, { sessions: verificationSessions }),
      // Report URLs and the provider's notifications carry their own permission (a signature), so they
      // are outside the /v1 guard.
      async signed(app) {
        await registerReportFileRoutes(app, { reports });
        await registerIdentityNotificationRoutes(app, { identity, checksFinished, logger: deps.logger.child({ module: 'verifications' }) });
      },
      partner(api) {
        registerVerificationRoutes(api, { verifications, charges: deps.charges, idempotency: deps.idempotency });
        registerEvidenceRoutes(api, { evidence, reports });
      },
      ops(api) {
        registerVerificationDecisionRoutes(api, { checks });
        registerEvidenceReadRoutes(api, { evidence });
      },
    },
    close: () => mrz.close(),
  };
}
