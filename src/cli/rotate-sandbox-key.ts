// `pvs keys rotate`, in sandbox: the key generated into DATA_DIR/secret-key is replaced by a new one, and
// the old one is kept in DATA_DIR/previous-secret-keys, which loadConfig reads as PREVIOUS_SECRET_KEYS when
// that is not set. Elsewhere the keys are the operator's, in the environment: the command says what to do.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ConfigError, previousKeysFile, sandboxKeyFile, type Config } from '../config.ts';
import { keyIdOf } from '../platform/keys/key-ring.ts';
import { serverInfoPath } from './server-info.ts';

export interface RotatedKey {
  current: string;
  previous: string[];
  /** A server running on this DATA_DIR goes on with the old key until it restarts. */
  serverRunning: boolean;
}

export function rotateSandboxKey(config: Config): RotatedKey {
  const file = sandboxKeyFile(config.DATA_DIR);
  const generated = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
  if (config.ENVIRONMENT !== 'sandbox' || generated !== config.SECRET_KEY) {
    throw new ConfigError(
      'SECRET_KEY: it is set in the environment, so it is yours to rotate: set a new SECRET_KEY, move the old one to PREVIOUS_SECRET_KEYS, restart every process, and remove it once `pvs keys status` shows nothing under it (docs/security.md, "Rotating SECRET_KEY")',
    );
  }
  const previous = [config.SECRET_KEY, ...config.PREVIOUS_SECRET_KEYS];
  const next = randomBytes(32).toString('base64url');
  // The previous keys first: a crash between the two writes leaves the old key current and listed, which
  // a start accepts (listing the current key is refused only when it was set by hand).
  writeAtomically(previousKeysFile(config.DATA_DIR), `${previous.join('\n')}\n`);
  writeAtomically(file, `${next}\n`);
  return { current: keyIdOf(next), previous: previous.map(keyIdOf), serverRunning: existsSync(serverInfoPath(config.DATA_DIR)) };
}

function writeAtomically(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}`);
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
}
