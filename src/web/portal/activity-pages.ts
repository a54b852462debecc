// (being written)
import type { HttpApp } from '../../platform/http/types.ts';
import type { PortalDeps } from './portal.ts';

export function registerActivityPages(_app: HttpApp, _deps: PortalDeps): void {}
