import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../errors.ts';
import { firstDuplicateKey, parseJsonBody } from './json-body.ts';

function refusal(raw: string | Buffer): { detail: string; pointer: string | undefined } {
  try {
    parseJsonBody(typeof raw === 'string' ? Buffer.from(raw) : raw);
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'VALIDATION_ERROR');
    return { detail: error.message, pointer: error.errors?.[0]?.pointer };
  }
  assert.fail(`accepted ${String(raw)}`);
}

describe('parseJsonBody', () => {
  it('parses JSON; an empty or blank body is no body', () => {
    assert.deepEqual(parseJsonBody(Buffer.from('{"a":[1,"é"]}')), { a: [1, 'é'] });
    assert.equal(parseJsonBody(Buffer.alloc(0)), undefined);
    assert.equal(parseJsonBody(Buffer.from(' \r\n')), undefined);
  });

  it('refuses bytes that are not UTF-8 instead of turning them into U+FFFD', () => {
    assert.deepEqual(refusal(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])), {
      detail: 'The body is not valid UTF-8; send JSON encoded as UTF-8',
      pointer: '',
    });
  });

  it('says what is wrong with malformed JSON', () => {
    assert.match(refusal('{"a":').detail, /^The body is not valid JSON: /);
    assert.match(refusal("{'a':1}").detail, /^The body is not valid JSON: /);
  });

  it('refuses prototype keys', () => {
    assert.match(refusal('{"__proto__":{"x":1}}').detail, /forbidden prototype property/);
    assert.match(refusal('{"constructor":{"prototype":{}}}').detail, /forbidden prototype property/);
  });

  it('refuses a key given twice, with its pointer', () => {
    assert.deepEqual(refusal('{"name":"a","name":"b"}'), { detail: '"name" appears twice in one object; send each field once', pointer: '/name' });
  });
});

describe('firstDuplicateKey', () => {
  it('finds duplicates at any depth, through escapes, and in array items', () => {
    assert.deepEqual(firstDuplicateKey('{"a":{"b":1,"b":2}}'), { key: 'b', pointer: '/a/b' });
    assert.deepEqual(firstDuplicateKey('{"a":1,"\\u0061":2}'), { key: 'a', pointer: '/a' });
    assert.deepEqual(firstDuplicateKey('[{"x":1},{"x":1 , "x" :2}]'), { key: 'x', pointer: '/1/x' });
    assert.deepEqual(firstDuplicateKey('{"a/b":{"c":[0,{"d":1,"d":1}]}}'), { key: 'd', pointer: '/a~1b/c/1/d' });
  });

  it('is not fooled by strings that look like keys, escaped quotes or repeats in sibling objects', () => {
    assert.equal(firstDuplicateKey('{"a":"\\"a\\":","b":["a:","a"],"c":{"a":1},"d":{"a":2}}'), undefined);
    assert.equal(firstDuplicateKey('{"x\\\\":1,"x":2}'), undefined);
    assert.equal(firstDuplicateKey('[1,2,3]'), undefined);
  });
});
