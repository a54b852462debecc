// The webhooks' housekeeping job; its handler is bound in webhooks.module.ts.
import { defineJobSpec, SlotPayload } from '../../platform/jobs/job.ts';

/** Webhook payloads are held about 33 hours (SPEC), long enough for the 24-hour retry window. */
export const payloadRetentionHours = 33;

export const purgePayloadsJob = defineJobSpec({ kind: 'webhooks.purge-payloads', payload: SlotPayload, everySeconds: 600 });

/** What the queue must know before the module that handles it exists. */
export const webhookJobSpecs = [purgePayloadsJob];
