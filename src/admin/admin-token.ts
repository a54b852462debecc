import { deriveKey, hmacHex } from '../platform/crypto.ts';

export function adminToken(secretKey: string): string {
  return hmacHex(deriveKey(secretKey, 'admin-endpoint'), 'pvs-admin');
}
