import { tokenRule } from '../../../../lambda/ingest/scrub/token';
import { applied } from '../../../support/scrub';

describe('token rule (providers’ access tokens by their prefixes)', () => {
  test.each([
    ['GitHub personal', `push failed for ghp_${'A1b2C3d4E5'.repeat(3)}123456`, 'push failed for [Filtered:token]'],
    ['GitHub OAuth', `gho_${'x9Y8z7W6v5'.repeat(4)}`, '[Filtered:token]'],
    ['GitHub fine-grained', `github_pat_${'11ABCDEFG0'.repeat(3)}_${'abc'.repeat(20)}`, '[Filtered:token]'],
    ['GitLab', 'PRIVATE-TOKEN glpat-xYz12AbC34dEf56GhI78 rejected', 'PRIVATE-TOKEN [Filtered:token] rejected'],
    ['Slack bot', 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp', '[Filtered:token]'],
    [
      'Slack webhook',
      'POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      'POST https://hooks.slack.com/services/[Filtered:token]',
    ],
    ['Stripe secret', 'stripe key sk_live_51H8abcDEFghiJKLmnoPQRstu', 'stripe key [Filtered:token]'],
    ['Stripe restricted', 'rk_test_4eC39HqLyjWDarjtT1zdp7dc', '[Filtered:token]'],
    ['npm', `//registry/:_authToken=npm_${'a1B2c3D4e5F6'.repeat(3)}`, '//registry/:_authToken=[Filtered:token]'],
    ['Google API key', 'AIzaSyA1234567890abcdefghijklmnopqrstuv', '[Filtered:token]'],
  ])('replaces a %s token', (_, text, expected) => {
    expect(applied(tokenRule, text)).toEqual({ text: expected, count: 1 });
  });

  test.each([
    ['a prefix alone', 'ghp_'],
    ['a short look-alike', 'sk_live_short'],
    ['a Stripe publishable key (public by design)', 'pk_live_51H8abcDEFghiJKLmnoPQRstu'],
    ['a prefix inside a word', `xghp_${'A1b2C3d4E5'.repeat(4)}`],
    ['prose about tokens', 'the GitHub token expired'],
  ])('keeps %s', (_, text) => {
    expect(applied(tokenRule, text)).toEqual({ text, count: 0 });
  });
});
