// Webhook destinations in the portal: list, add (secret shown once), change, disable or enable, remove,
// rotate the secret (shown once) and send a test event. Every page calls the services the /v1 API calls,
// scoped by the viewer's partner, so another partner's destination answers 404.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { categories, eventCatalogue } from '../../modules/webhooks/events/index.ts';
import { findTestDefinition, testVariants } from '../../modules/webhooks/notifications.service.ts';
import type { WebhookDestination, WebhookNotification } from '../../modules/webhooks/webhooks.schemas.ts';
import { AppError } from '../../platform/errors.ts';
import type { HttpApp } from '../../platform/http/types.ts';
import { formOf, formValues, sendPage, tenantOfViewer, viewerOf } from '../area.ts';
import { notice, type FieldError } from '../ui.ts';
import { fieldErrorsOf, newFormKey, recordChange, runOnce } from './destination-changes.ts';
import {
  alreadySentPage,
  destinationCreatedPage,
  destinationListPage,
  destinationPage,
  newDestinationPage,
  secretRotatedPage,
  type DestinationFields,
  type DestinationPageOptions,
  type TestEventChoice,
} from './destination-views.ts';
import type { PortalDeps } from './portal-deps.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const ListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  from: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
  done: Type.Optional(Type.String({ maxLength: 20 })),
});
const DetailQuery = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 20 })),
  sent: Type.Optional(Type.String({ maxLength: 2000 })),
  type: Type.Optional(Type.String({ maxLength: 100 })),
});

/** Every sample the API's test endpoint can send, as `prefix:variant` (CONTRACT §10), labelled by its event type. */
export function testEventChoices(): TestEventChoice[] {
  const prefixes = [...new Set(eventCatalogue.map((d) => d.type.split('.')[0]!))];
  return prefixes.flatMap((prefix) =>
    testVariants(prefix).flatMap((variant) => {
      const definition = findTestDefinition(prefix, variant);
      return definition?.example ? [{ value: `${prefix}:${variant}`, label: definition.type, category: definition.category as TestEventChoice['category'] }] : [];
    }),
  );
}

const doneMessages: Record<string, string> = {
  saved: 'Your changes were saved.',
  enabled: 'The destination is enabled: events are sent to it again.',
  disabled: 'The destination is disabled: nothing is sent to it until you enable it.',
};

// The service says `url must be https`; on the page the field is called "Endpoint URL".
const messages = {
  url: (m: string) => `The endpoint URL ${m.replace(/^url /, '')}`,
};

/** The form's fields, each checked by the rules the API applies (the service's own checks), every error at once. */
async function checkedFields(request: FastifyRequest, deps: PortalDeps): Promise<{ values: DestinationFields; url: string; errors: FieldError[] }> {
  const form = formOf(request);
  const values = { url: (form.url ?? '').trim(), categories: formValues(request, 'categories'), enabled: form.enabled !== 'false' };
  const errors: FieldError[] = [];
  const check = async (run: () => unknown) => {
    try {
      return await run();
    } catch (error) {
      const found = fieldErrorsOf(error, messages);
      if (!found) throw error;
      errors.push(...found);
      return undefined;
    }
  };
  let url = '';
  if (!values.url) errors.push({ name: 'url', message: 'Enter the endpoint URL' });
  else if (values.url.length > 2048) errors.push({ name: 'url', message: 'The endpoint URL must be at most 2048 characters' });
  else url = ((await check(() => deps.destinations.checkUrl(values.url))) as string | undefined) ?? '';
  if (values.categories.length === 0) errors.push({ name: 'categories', message: 'Choose at least one event category' });
  else await check(() => deps.destinations.assertCategories(values.categories));
  return { values, url, errors };
}

export function registerDestinationPages(app: HttpApp, deps: PortalDeps): void {
  const choicesFor = async (request: FastifyRequest) => {
    const eligible = (await deps.partners.getOwn(tenantOfViewer(request))).monitoringEligible;
    return { monitoringEligible: eligible, testChoices: testEventChoices().filter((c) => eligible || c.category !== 'MONITORING') };
  };

  async function showDestination(
    request: FastifyRequest,
    reply: FastifyReply,
    destination: WebhookDestination,
    extra: Partial<DestinationPageOptions> & { status?: number } = {},
  ): Promise<FastifyReply> {
    const { status, ...options } = extra;
    const body = destinationPage({ destination, csrf: viewerOf(request).session.csrfToken, formKey: newFormKey(), ...(await choicesFor(request)), ...options });
    return sendPage(reply, { title: 'Webhook destination', current: 'destinations', body, status });
  }

  app.get('/destinations', { schema: { querystring: ListQuery } }, async (request, reply) => {
    const { limit, from, done } = request.query;
    const page = await deps.destinations.list(tenantOfViewer(request), { limit, from });
    return sendPage(reply, { title: 'Webhook destinations', current: 'destinations', body: destinationListPage({ page, removed: done === 'removed' }) });
  });

  app.get('/destinations/new', async (request, reply) => {
    const body = newDestinationPage({ csrf: viewerOf(request).session.csrfToken, formKey: newFormKey(), values: { url: '', categories: [...categories], enabled: true }, errors: [] });
    return sendPage(reply, { title: 'Add a webhook destination', current: 'destinations', body });
  });

  app.post('/destinations', async (request, reply) => {
    const tenant = tenantOfViewer(request);
    const { values, url, errors } = await checkedFields(request, deps);
    if (errors.length > 0) {
      const body = newDestinationPage({ csrf: viewerOf(request).session.csrfToken, formKey: formOf(request).formKey ?? newFormKey(), values, errors });
      return sendPage(reply, { title: 'Add a webhook destination', current: 'destinations', status: 400, body });
    }
    const input = { url, categories: values.categories as WebhookDestination['categories'] };
    const outcome = await runOnce(
      deps,
      request,
      async (tx) => {
        const created = await deps.destinations.create(tx, tenant, input);
        await recordChange(deps, request, { action: 'destination.created', targetId: created.id, detail: { url, categories: input.categories } }, tx);
        return created;
      },
      ({ secret: _secret, ...destination }) => destination,
    );
    if (!outcome.first) {
      const text = `This form was already sent, and the destination was added then${outcome.earlier ? ` (${outcome.earlier.url})` : ''}. Its secret was shown only that once: if you did not copy it, rotate the secret from the destination’s page.`;
      const back = outcome.earlier ? { href: `/portal/destinations/${outcome.earlier.id}`, label: 'Go to the destination' } : { href: '/portal/destinations', label: 'Webhook destinations' };
      return sendPage(reply, { title: 'Already added', current: 'destinations', body: alreadySentPage({ title: 'Already added', back, text }) });
    }
    return sendPage(reply, { title: 'Destination added', current: 'destinations', body: destinationCreatedPage(outcome.value) });
  });

  app.get('/destinations/:id', { schema: { params: IdParams, querystring: DetailQuery } }, async (request, reply) => {
    const tenant = tenantOfViewer(request);
    const destination = await deps.destinations.get(tenant, request.params.id);
    const { done, sent, type } = request.query;
    let sentNotifications: WebhookNotification[] = [];
    if (sent) {
      // Ids from our own redirect; each is read through the service, so only the viewer's own show.
      const ids = sent.split(',').slice(0, 20);
      const found = await Promise.all(ids.map((id) => deps.notifications.get(tenant, id).catch((e: unknown) => (e instanceof AppError && e.code === 'NOT_FOUND' ? undefined : Promise.reject(e)))));
      sentNotifications = found.filter((n) => n !== undefined);
    }
    return showDestination(request, reply, destination, {
      message: done && doneMessages[done] ? notice('success', doneMessages[done]) : undefined,
      sent: sentNotifications.length ? { type: type ?? sentNotifications[0]!.type, notifications: sentNotifications } : undefined,
      // The form keeps the type just sent, to send it again or pick the next one.
      testEvent: testEventChoices().find((c) => c.label === type)?.value,
    });
  });

  app.post('/destinations/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const tenant = tenantOfViewer(request);
    const destination = await deps.destinations.get(tenant, request.params.id);
    const { values, url, errors } = await checkedFields(request, deps);
    if (errors.length > 0) return showDestination(request, reply, destination, { edit: { values, errors }, status: 400 });
    const updated = await deps.destinations.update(tenant, destination.id, { url, categories: values.categories as WebhookDestination['categories'], enabled: values.enabled });
    const changed = {
      ...(updated.url !== destination.url ? { url: updated.url } : {}),
      ...(updated.categories.join() !== destination.categories.join() ? { categories: updated.categories } : {}),
      ...(updated.enabled !== destination.enabled ? { enabled: updated.enabled } : {}),
    };
    await recordChange(deps, request, { action: 'destination.updated', targetId: destination.id, detail: changed });
    return reply.redirect(`/portal/destinations/${destination.id}?done=saved`, 303);
  });

  for (const enabled of [true, false]) {
    app.post(`/destinations/:id/${enabled ? 'enable' : 'disable'}`, { schema: { params: IdParams } }, async (request, reply) => {
      const updated = await deps.destinations.update(tenantOfViewer(request), request.params.id, { enabled });
      await recordChange(deps, request, { action: enabled ? 'destination.enabled' : 'destination.disabled', targetId: updated.id });
      return reply.redirect(`/portal/destinations/${updated.id}?done=${enabled ? 'enabled' : 'disabled'}`, 303);
    });
  }

  app.post('/destinations/:id/remove', { schema: { params: IdParams } }, async (request, reply) => {
    const removed = await deps.destinations.remove(tenantOfViewer(request), request.params.id);
    await recordChange(deps, request, { action: 'destination.removed', targetId: removed.id, detail: { url: removed.url } });
    return reply.redirect('/portal/destinations?done=removed', 303);
  });

  app.post('/destinations/:id/rotate-secret', { schema: { params: IdParams } }, async (request, reply) => {
    const tenant = tenantOfViewer(request);
    const outcome = await runOnce(
      deps,
      request,
      async (tx) => {
        const rotated = await deps.destinations.rotateSecret(tenant, request.params.id, tx);
        await recordChange(deps, request, { action: 'destination.secret_rotated', targetId: rotated.id }, tx);
        return rotated;
      },
      ({ secret: _secret, ...destination }) => destination,
    );
    if (!outcome.first) {
      const back = { href: `/portal/destinations/${request.params.id}`, label: 'Back to the destination' };
      const text = 'This form was already sent, and the secret was rotated then. The new secret was shown only that once: if you did not copy it, rotate again.';
      return sendPage(reply, { title: 'Already rotated', current: 'destinations', body: alreadySentPage({ title: 'Already rotated', back, text }) });
    }
    return sendPage(reply, { title: 'New signing secret', current: 'destinations', body: secretRotatedPage(outcome.value) });
  });

  app.post('/destinations/:id/test', { schema: { params: IdParams } }, async (request, reply) => {
    const tenant = tenantOfViewer(request);
    const destination = await deps.destinations.get(tenant, request.params.id);
    const event = formOf(request).event ?? '';
    const [type = '', variant = ''] = event.split(':');
    const choice = (await choicesFor(request)).testChoices.find((c) => c.value === event);
    if (!choice) return showDestination(request, reply, destination, { testErrors: [{ name: 'event', message: 'Choose an event type from the list' }], status: 400 });
    let sent: { data: WebhookNotification[] };
    try {
      sent = await deps.notifications.sendTest(tenant, type, variant);
    } catch (error) {
      // No destination subscribed to the category: said on the page, with the form as it was.
      if (!(error instanceof AppError) || !['INVALID_STATE', 'FORBIDDEN'].includes(error.code)) throw error;
      return showDestination(request, reply, destination, { message: notice('error', error.message), testEvent: event, status: error.status });
    }
    const ids = sent.data.map((n) => n.id);
    await recordChange(deps, request, { action: 'webhook.test_sent', targetId: destination.id, detail: { type: choice.label, notificationIds: ids } });
    return reply.redirect(`/portal/destinations/${destination.id}?sent=${ids.join(',')}&type=${encodeURIComponent(choice.label)}`, 303);
  });
}
