import { requireContentType } from '../../../../lambda/ingest/api/content-type';
import { newRequestState } from '../../../../lambda/infrastructure/http/request-state';
import { errorMessage, proxyEvent, thrown } from '../../../support/events';

const check = requireContentType(['application/json', 'text/plain']);
const refusal = (contentType?: string) => {
  const event = proxyEvent({ headers: contentType === undefined ? {} : { 'content-type': contentType } });
  try {
    check(event, newRequestState({}));
  } catch (error) {
    return [(error as { statusCode: number }).statusCode, errorMessage(error)];
  }
  return undefined;
};

describe("an ingest body's media type", () => {
  test('JSON or text (what sendBeacon sends for a string), in UTF-8, in any case', () => {
    for (const type of ['application/json', 'text/plain;charset=UTF-8', 'Application/JSON; charset="utf-8"', 'text/plain; charset=utf8'])
      expect(refusal(type)).toBeUndefined();
  });

  test('missing, another type or another charset is 415, saying what to send', () => {
    expect(refusal()).toEqual([415, 'Missing Content-Type: send the JSON body as application/json or text/plain.']);
    expect(refusal('application/xml')).toEqual([415, 'Content-Type "application/xml" is not accepted: send the JSON body as application/json or text/plain.']);
    expect(refusal('text/plain; charset=latin1')).toEqual([415, 'Content-Type charset "latin1" is not accepted: send the body in UTF-8.']);
  });

  test('quotes a long header clipped', () => {
    expect(String(errorMessage(thrown(() => check(proxyEvent({ headers: { 'content-type': 'x'.repeat(1000) } }), newRequestState({}))))).length).toBeLessThan(
      300,
    );
  });
});
