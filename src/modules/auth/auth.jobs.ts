// The signing keys' schedule: every hour, a rotation when the newest key is older than
// SIGNING_KEY_ROTATION_DAYS (if set), and the deletion of keys that have left. Its handler is bound in
// auth.module.ts.
import { defineJobSpec, SlotPayload } from '../../platform/jobs/job.ts';

export const signingKeysJob = defineJobSpec({ kind: 'auth.signing-keys', payload: SlotPayload, everySeconds: 3600 });

/** What the queue must know before the module that handles it exists. */
export const authJobSpecs = [signingKeysJob];
