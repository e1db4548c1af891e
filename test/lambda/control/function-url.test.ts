import { isFunctionUrlEvent, readUrlCall, urlResult } from '../../../lambda/control/function-url';
import { urlEvent } from '../../support/control';

describe('readUrlCall', () => {
  test('takes the caller from the IAM authorizer and the request from the JSON body', () => {
    expect(readUrlCall(urlEvent({ operation: 'contacts.list' }))).toMatchObject({
      ok: true,
      request: { operation: 'contacts.list' },
      principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/operator-session',
    });
  });

  test('refuses a body that is not UTF-8', () => {
    const event = urlEvent({}, { raw: '' });
    event.body = Buffer.from([0x7b, 0xff, 0x7d]).toString('base64');
    event.isBase64Encoded = true;
    expect(readUrlCall(event)).toMatchObject({ ok: false, result: { statusCode: 400 }, reason: 'the body is not UTF-8' });
  });

  test('refuses an unsigned call (no IAM caller) with 403, before anything else', () => {
    expect(readUrlCall(urlEvent({ operation: 'contacts.list' }, { principal: null }))).toMatchObject({
      ok: false,
      result: { statusCode: 403 },
      principal: undefined,
    });
  });

  test('refuses another method (405, saying POST), another path (404), an empty body and a body that is not JSON (400)', () => {
    const get = readUrlCall(urlEvent({}, { method: 'GET' }));
    expect(get).toMatchObject({ ok: false, result: { statusCode: 405, headers: { allow: 'POST' } } });
    expect(readUrlCall(urlEvent({}, { path: '/admin' }))).toMatchObject({ ok: false, result: { statusCode: 404 } });
    expect(readUrlCall(urlEvent({}, { raw: '' }))).toMatchObject({
      ok: false,
      result: { statusCode: 400 },
      reason: 'the body must be a JSON object with an "operation"',
    });
    expect(readUrlCall(urlEvent({}, { raw: '{oops' }))).toMatchObject({ ok: false, reason: 'the body is not valid JSON' });
  });
});

describe('a function URL answer', () => {
  test('is JSON, never cached, never sniffed, with the headers given', () => {
    const result = urlResult(400, { error: 'x' }, { allow: 'POST' });
    expect(result).toEqual({
      statusCode: 400,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', allow: 'POST' },
      body: '{"error":"x"}',
    });
  });

  test('a function URL event is told from a direct Invoke by its HTTP method', () => {
    expect(isFunctionUrlEvent(urlEvent({}))).toBe(true);
    expect(isFunctionUrlEvent({ operation: 'contacts.list', factoryId: 'fac_a' })).toBe(false);
    expect(isFunctionUrlEvent(null)).toBe(false);
  });
});
