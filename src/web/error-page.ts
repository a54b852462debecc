// The page a web area answers with when a page cannot be shown: not found (another partner's id looks
// exactly like a missing one), a refused form, a bad address, or a failure on our side.
import type { FastifyReply } from 'fastify';
import { html, type Html } from './html.ts';
import { sendPage } from './pages.ts';

export function errorPage(reply: FastifyReply, status: number, title: string, message: string | Html): FastifyReply {
  const signedIn = reply.request.viewer !== undefined;
  const area = reply.request.viewer?.area ?? reply.request.url.split('/')[1];
  const body = html`<div class="page-header"><h1>${title}</h1></div>
<div class="panel error-panel"><p class="status-code">Error ${status}</p>${typeof message === 'string' ? html`<p>${message}</p>` : message}
<p><a href="/${area}">${signedIn ? 'Back to the start page' : 'Sign in'}</a></p></div>`;
  return sendPage(reply, { title, body, status });
}
