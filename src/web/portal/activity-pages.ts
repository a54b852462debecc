// What the partner's systems did through the API, as the portal shows it: business lookups, deed
// analyses, payments and contacts, each a list and a detail page (verifications: verification-pages.ts).
// Every page reads through the same services the /v1 API calls, scoped by the signed-in partner
// (tenantOfViewer), so another partner's id answers 404 like one that does not exist.
import type { HttpApp } from '../../platform/http/types.ts';
import { registerContactPages } from './contact-pages.ts';
import { registerDeedPages } from './deed-pages.ts';
import { registerLookupPages } from './lookup-pages.ts';
import { registerPaymentPages } from './payment-pages.ts';
import type { PortalDeps } from './portal-deps.ts';

export function registerActivityPages(app: HttpApp, deps: PortalDeps): void {
  registerLookupPages(app, deps);
  registerDeedPages(app, deps);
  registerPaymentPages(app, deps);
  registerContactPages(app, deps);
}
