// The LLM extractor against a local server that speaks the OpenAI chat API: what it sends, a good
// answer, and each way an answer is refused (unreachable, throttled, not JSON, not the schema).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { DeedExtraction, DeedPage } from '../../src/providers/extractor/deed-payload.ts';
import { createLlmExtractor } from '../../src/providers/extractor/llm-extractor.ts';

const pages: DeedPage[] = [
  { number: 1, text: 'THIS DEED is made by WATTLE NOMINEES PTY LTD ACN 111 111 114 (the Trustee).', source: 'TEXT_LAYER' },
  { number: 2, text: 'Appointor: Priscilla Mary Fairbairn', source: 'TEXT_LAYER' },
];
const good: DeedExtraction = {
  trust: { name: 'WATTLE FAMILY TRUST', abn: null, trustType: 'DISCRETIONARY', jurisdiction: 'Victoria', establishedDate: '1 July 2012', vestingDate: null },
  parties: [
    { role: 'APPOINTOR', partyKind: 'INDIVIDUAL', businessName: null, firstName: 'Priscilla Mary', lastName: 'Fairbairn', acn: null, abn: null, address: null, confidence: 'HIGH', sourcePage: 2, sourceQuote: 'Appointor: Priscilla Mary Fairbairn' },
  ],
  beneficiaryClasses: ['General Beneficiaries'],
};

let server: Server;
let baseUrl: string;
let answer: { status: number; body: string };
let received: { url: string; authorization: string | undefined; body: { model: string; messages: Array<{ role: string; content: string }> } } | undefined;

before(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      received = { url: req.url!, authorization: req.headers.authorization, body: JSON.parse(text) };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = undefined;
});

const chat = (content: string) => JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] });

describe('the LLM extractor', () => {
  it('sends the numbered pages to /chat/completions with the model and key, and takes an answer that fits the schema', async () => {
    answer = { status: 200, body: chat(JSON.stringify(good)) };
    const result = await createLlmExtractor({ baseUrl, model: 'deed-reader-1', apiKey: 'sk-test' }).extract(pages);
    assert.deepEqual(result, { ok: true, extraction: good });
    assert.equal(received?.url, '/v1/chat/completions');
    assert.equal(received?.authorization, 'Bearer sk-test');
    assert.equal(received?.body.model, 'deed-reader-1');
    assert.match(received!.body.messages[1]!.content, /=== Page 2 ===\nAppointor: Priscilla Mary Fairbairn/);
  });

  it('is UNAVAILABLE when the endpoint cannot be reached, throttles or fails, and INVALID for an answer it cannot use', async () => {
    const closed = createLlmExtractor({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
    assert.deepEqual(await closed.extract(pages), { ok: false, reason: 'UNAVAILABLE' });
    for (const [status, body, reason] of [
      [429, '{}', 'UNAVAILABLE'],
      [503, '{}', 'UNAVAILABLE'],
      [400, '{"error":{"message":"bad request"}}', 'INVALID'],
      [200, chat('Here are the parties: …'), 'INVALID'],
      [200, chat(JSON.stringify({ ...good, parties: [{ ...good.parties[0], role: 'BOSS' }] })), 'INVALID'],
      [200, chat(JSON.stringify({ ...good, dateOfBirth: '1970-01-01' })), 'INVALID'],
      [200, '{"choices":[]}', 'INVALID'],
    ] as const) {
      answer = { status, body };
      assert.deepEqual(await createLlmExtractor({ baseUrl, model: 'm' }).extract(pages), { ok: false, reason }, `${status} ${body.slice(0, 60)}`);
    }
  });

  it('gives up at its timeout as UNAVAILABLE', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const extractor = createLlmExtractor({ baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`, model: 'm', timeoutMs: 200 });
      assert.deepEqual(await extractor.extract(pages), { ok: false, reason: 'UNAVAILABLE' });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
