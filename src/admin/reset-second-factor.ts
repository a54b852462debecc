// `pvs operator reset-mfa` and `pvs portal-user reset-mfa`: for a person who lost the phone with their
// authenticator app (or their passkeys) and their recovery codes, or moves to a new one. The factors (the
// app and every passkey) and the codes are removed and the account's sessions end, so the person signs in
// again and enrols a new factor before anything else (operators always; portal users when their partner
// requires it). Written to the audit log as the `pvs` command's doing.
import type { Services } from '../services.ts';

export async function resetSecondFactor(services: Services, kind: 'operator' | 'portalUser', email: string) {
  const factors = kind === 'operator' ? services.operatorFactors : services.portalUserFactors;
  const reset = await factors.reset(email);
  const sessionsEnded = await services.webSessions.revokeAccounts(kind === 'operator' ? 'console' : 'portal', [reset.accountId]);
  await services.audit.record({
    actor: { kind: 'ADMIN', id: 'cli', email: 'pvs command' },
    action: `${kind === 'operator' ? 'operator' : 'portal_user'}.second_factor_reset`,
    partnerId: reset.partnerId,
    targetId: reset.accountId,
    detail: { email: reset.email, hadSecondFactor: reset.hadSecondFactor, recoveryCodesRemoved: reset.recoveryCodesRemoved, passkeysRemoved: reset.passkeysRemoved, sessionsEnded },
  });
  const id = kind === 'operator' ? { operatorId: reset.accountId } : { portalUserId: reset.accountId };
  return { ...id, email: reset.email, hadSecondFactor: reset.hadSecondFactor, recoveryCodesRemoved: reset.recoveryCodesRemoved, passkeysRemoved: reset.passkeysRemoved, sessionsEnded };
}
