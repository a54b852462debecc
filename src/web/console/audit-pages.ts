// (being written)
import type { HttpApp } from '../../platform/http/types.ts';
import type { ConsoleDeps } from './console.ts';

export function registerAuditPages(_app: HttpApp, _deps: ConsoleDeps): void {}
