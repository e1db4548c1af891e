import { awsKeyRule } from '../../../../lambda/ingest/scrub/aws-key';
import { applied } from '../../../support/scrub';

describe('aws-key rule', () => {
  test.each([
    ['an access key id', 'AccessDenied for AKIAIOSFODNN7EXAMPLE', 'AccessDenied for [Filtered:aws-key]'],
    ["a session's key id", 'key ASIAY34FZKBOKMUTVV7A expired', 'key [Filtered:aws-key] expired'],
    ['a secret access key', 'secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.', 'secret [Filtered:aws-key].'],
    ['a secret access key that is the whole text (40 characters, no more)', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', '[Filtered:aws-key]'],
    [
      'both, in an environment dump',
      'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE AWS_SECRET=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'AWS_ACCESS_KEY_ID=[Filtered:aws-key] AWS_SECRET=[Filtered:aws-key]',
    ],
  ])('replaces %s', (_, text, expected) => {
    expect(applied(awsKeyRule, text).text).toBe(expected);
  });

  test.each([
    ['a SHA-1 in hex', 'commit 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12'],
    ['a longer base64 run', `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB'.repeat(3)}`],
    ['a path of 40 characters', '/usr/local/lib/node_modules/npm/bin/cli'],
    ['capitals and digits that are no key id', 'AKIA123'],
    ['a base64url run', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2aaUa~a'],
  ])('keeps %s', (_, text) => {
    expect(applied(awsKeyRule, text)).toEqual({ text, count: 0 });
  });
});
