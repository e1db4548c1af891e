import { bearerRule } from '../../../../lambda/ingest/scrub/bearer';
import { applied } from '../../../support/scrub';

describe('bearer rule', () => {
  test.each([
    ['Authorization: Bearer abcDEF123456789xyz', 'Authorization: Bearer [Filtered:bearer]'],
    ['bearer 0123456789abcdef', 'bearer [Filtered:bearer]'],
    ['Basic dXNlcjpwYXNzd29yZA==', 'Basic [Filtered:bearer]'],
    ['{"authorization":"Bearer gho_16C7e42F292c6912E7710c838347Ae178B4a"}', '{"authorization":"Bearer [Filtered:bearer]"}'],
  ])('replaces the credential after an auth scheme: %s', (text, expected) => {
    expect(applied(bearerRule, text)).toEqual({ text: expected, count: 1 });
  });

  test.each([
    ['prose after Bearer', 'Bearer authentication failed'],
    ['prose after Basic', 'Basic information missing'],
    ['a short word', 'Bearer token'],
  ])('keeps %s', (_, text) => {
    expect(applied(bearerRule, text)).toEqual({ text, count: 0 });
  });
});
