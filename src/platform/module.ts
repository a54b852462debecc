// What a module's wiring (`modules/<domain>/<domain>.module.ts`) gives the composition root: its services,
// its job definitions (the handlers bound to those services) and its routes, which app.ts registers.
import type { OpsApi } from './http/ops-api.ts';
import type { PartnerApi } from './http/partner-api.ts';
import type { HttpApp } from './http/types.ts';
import type { JobDefinition } from './jobs/job.ts';

/** A module's routes, by where app.ts registers them; a module leaves out the places it has nothing for. */
export interface ModuleRoutes {
  /** Outside every guard: health, the token endpoint, the person's hosted session. */
  public?(app: HttpApp): Promise<void> | void;
  /** Outside every guard too, because the URL carries its own permission (a signature). */
  signed?(app: HttpApp): Promise<void> | void;
  /** /v1, inside partnerApi(…): a partner's bearer token, X-Partner-Id and the partner's rate limit. */
  partner?(api: PartnerApi): void;
  /** A plugin registered under /ops/v1 beside (not inside) opsApi: signing in. */
  opsSignIn?(app: HttpApp): Promise<void>;
  /** /ops/v1, inside opsApi(…): an operator's token. */
  ops?(api: OpsApi): void;
}

export interface Module<S> {
  /** Named as in `Services`: the composition root spreads them into it. */
  services: S;
  jobs: JobDefinition[];
  routes: ModuleRoutes;
  /** Lets go of what the module holds open (sockets, a worker thread) when the services close. */
  close?(): Promise<void> | void;
}
