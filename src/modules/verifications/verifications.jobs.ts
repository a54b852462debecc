// The check job: one per submitted attempt. The spec is apart from the handler so that the session
// service that enqueues it can exist before the check service that runs it.
import { Type } from '@sinclair/typebox';
import { defineJob, defineJobSpec, type JobDefinition } from '../../platform/jobs/job.ts';
import type { VerificationCheckService } from './verification-checks.service.ts';

/**
 * Checks that find the identity provider or the screening engine down are tried again after 30 s, 1, 2,
 * 5, 10 and 30 minutes, then hourly: ten tries over about 3 h 48 min. The request's issueList says so
 * from the third; after the tenth the attempt is UNAVAILABLE and the person may submit again.
 */
export const verificationCheckJob = defineJobSpec({
  kind: 'verifications.check',
  payload: Type.Object({ individualId: Type.String(), attempt: Type.Integer({ minimum: 1 }) }),
  retry: { maxAttempts: 10, backoffSeconds: [30, 60, 120, 300, 600, 1800, 3600] },
});

export function verificationJobs(deps: { checks: VerificationCheckService }): JobDefinition[] {
  return [defineJob({ ...verificationCheckJob, concurrency: 4, handler: (payload, ctx) => deps.checks.check(payload.individualId, payload.attempt, ctx) })] as JobDefinition[];
}
