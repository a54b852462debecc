// s3rver does not check SigV4 signatures: its authentication middleware only reads the access key id and
// refuses a presigned URL past X-Amz-Date + X-Amz-Expires ("Signature version 4 calculation is
// unimplemented"). This gate stands in front of it and checks a presigned request's signature the way
// S3 does (AWS SigV4: the canonical request over the method, path, query and every signed header, and
// every x-amz-* header sent must be signed), answering 403 as S3 would; what it accepts goes on to
// s3rver unchanged, which then applies the expiry. Requests signed in the Authorization header (the
// SDK's own HeadObject and the like) and CORS preflights pass straight through.
import { createHash, createHmac } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SigV4Gate {
  url: string;
  /** Presigned requests refused so far. */
  refused: number;
  close(): Promise<void>;
}

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Why S3 would refuse this presigned request, or undefined when the signature holds. */
export function presignedRefusal(request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>, secretAccessKey: string): string | undefined {
  const [rawPath = '', rawQuery = ''] = (request.url ?? '').split('?', 2);
  const params = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [name = '', value = ''] = pair.split('=', 2);
      return [decodeURIComponent(name), decodeURIComponent(value)] as const;
    });
  const param = (name: string) => params.find(([n]) => n === name)?.[1];
  const credential = param('X-Amz-Credential')?.split('/');
  const signedHeaders = param('X-Amz-SignedHeaders')?.split(';');
  if (param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' || !credential || credential.length !== 5 || !signedHeaders || !param('X-Amz-Signature')) return 'AuthorizationQueryParametersError';
  const unsigned = Object.keys(request.headers).find((name) => name.startsWith('x-amz-') && !signedHeaders.includes(name));
  if (unsigned) return `AccessDenied: header ${unsigned} is not signed`;

  const query = params
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const headers = signedHeaders.map((name) => `${name}:${String(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [request.method, rawPath, query, headers, signedHeaders.join(';'), param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD'].join('\n');
  const [, date = '', region = '', service = ''] = credential;
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', param('X-Amz-Date'), scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), 'aws4_request');
  return hmac(key, toSign).toString('hex') === param('X-Amz-Signature') ? undefined : 'SignatureDoesNotMatch';
}

export async function startSigV4Gate(options: { target: string; secretAccessKey: string }): Promise<SigV4Gate> {
  const target = new URL(options.target);
  const gate = { refused: 0 } as SigV4Gate;
  const server = http.createServer((req, res) => {
    const presigned = (req.url ?? '').includes('X-Amz-Algorithm=') && req.method !== 'OPTIONS';
    const refusal = presigned ? presignedRefusal(req, options.secretAccessKey) : undefined;
    if (refusal) {
      gate.refused += 1;
      res.writeHead(403, { 'content-type': 'application/xml', connection: 'close' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${refusal.split(':')[0]}</Code><Message>${refusal}</Message></Error>`);
      return;
    }
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gate.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return gate;
}
