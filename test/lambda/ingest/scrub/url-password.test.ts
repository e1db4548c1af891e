import { urlPasswordRule } from '../../../../lambda/ingest/scrub/url-password';
import { applied } from '../../../support/scrub';

describe('url-password rule', () => {
  test.each([
    ['GET https://ada:hunter2@api.example.com/x failed', 'GET https://ada:[Filtered:url-password]@api.example.com/x failed'],
    ['postgres://app:s3cr%40t@db:5432/main', 'postgres://app:[Filtered:url-password]@db:5432/main'],
  ])("replaces a URL's password: %s", (text, expected) => {
    expect(applied(urlPasswordRule, text)).toEqual({ text: expected, count: 1 });
  });

  test.each([
    ['a URL with a port', 'https://api.example.com:8443/x?a=1'],
    ['a URL with a user only', 'ssh://git@host/repo'],
  ])('keeps %s', (_, text) => {
    expect(applied(urlPasswordRule, text)).toEqual({ text, count: 0 });
  });
});
