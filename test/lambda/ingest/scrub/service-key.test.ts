import { serviceKeyRule } from '../../../../lambda/ingest/scrub/service-key';
import { applied } from '../../../support/scrub';

describe('service-key rule', () => {
  test.each([
    ['leaked dfsk_AbCdEf0123456789_-xyz!', 'leaked [Filtered:service-key]!'],
    ['https://h/ingest/v1/events?key=dfpk_0123456789abcdefXYZ', 'https://h/ingest/v1/events?key=[Filtered:service-key]'],
    ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '[Filtered:service-key]'],
    ['cut dfsk_0123', 'cut [Filtered:service-key]'],
  ])("replaces this service's keys: %s", (text, expected) => {
    expect(applied(serviceKeyRule, text)).toEqual({ text: expected, count: 1 });
  });

  test.each([
    ['a prefix inside a word', 'xdfsk_0123456789abcdef'],
    ['the prefix alone', 'keys start with dfsk_'],
  ])('keeps %s', (_, text) => {
    expect(applied(serviceKeyRule, text)).toEqual({ text, count: 0 });
  });
});
