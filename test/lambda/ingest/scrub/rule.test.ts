import { looksLikeCredential, marker, MARKER, SCRUB_RULE_NAMES } from '../../../../lambda/ingest/scrub/rule';

describe('what every scrubbing rule shares', () => {
  test("a match's marker names its rule, and the one marker pattern recognizes every rule's", () => {
    expect(marker('card')).toBe('[Filtered:card]');
    for (const name of SCRUB_RULE_NAMES) expect(MARKER.test(marker(name))).toBe(true);
    expect(MARKER.test('[Filtered:]')).toBe(false);
  });

  test('a word after "Bearer" is a credential when it has a digit, an inner capital, a token symbol, or 24 characters', () => {
    for (const word of ['abc123', 'eyJhbGciOi', 'a.b', 'x_y-z', 'token+/=', 'a'.repeat(24)]) expect(looksLikeCredential(word)).toBe(true);
  });

  test('an English word after "Bearer" is not', () => {
    for (const word of ['authentication', 'token', 'Token', 'scheme', 'a'.repeat(23)]) expect(looksLikeCredential(word)).toBe(false);
  });
});
