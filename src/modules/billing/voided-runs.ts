// A run whose charges were all voided closes VOID: nothing is owed and the card is not asked (again).
// It ends with contact.billing.voided, so a partner who saw run_created (or failed) sees the run close,
// and it no longer blocks the contact if it was the contact's last unpaid run. Called in the
// transaction that made the run VOID, so the state and the event commit together.
import type { Tx } from '../../platform/db/database.ts';
import type { Outbox } from '../../platform/outbox.ts';
import { tenantOf } from '../../platform/tenancy.ts';
import { contactBillingVoided } from '../webhooks/events/billing.events.ts';
import * as charges from './charges.repository.ts';
import * as contacts from './contacts.repository.ts';

export async function closeVoidedRun(tx: Tx, deps: { outbox: Outbox }, run: charges.RunRow, at: Date): Promise<void> {
  if ((await charges.countFailedRuns(tx, run.contact_id)) === 0) await contacts.clearPaymentFailed(tx, tenantOf(run.partner_id), run.contact_id, at);
  await deps.outbox.emit(tx, contactBillingVoided, {
    partnerId: run.partner_id,
    payload: {
      contactId: run.contact_id,
      channelPartnerId: run.partner_id,
      billingRunId: run.id,
      amount: 0,
      voidedChargeCount: await charges.countVoidedCharges(tx, run.id),
    },
  });
}
