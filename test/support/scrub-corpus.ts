import type { ScrubRuleName } from '../../lambda/ingest/scrub/rule';

/**
 * What the scrubber must take, and what only looks like it and must stay
 * (docs/privacy.md#scrubbing): the corpus test/lambda/ingest/scrub/scrubber.test.ts
 * runs whole, the hostile suite sends over HTTP, and the table scans look for.
 * Each positive names its rule and the part that must never be stored.
 */
export interface Positive {
  rule: ScrubRuleName;
  /** As a page or a server would write it. */
  text: string;
  /** What must not survive, anywhere. */
  secret: string;
}

export const POSITIVES: readonly Positive[] = [
  { rule: 'aws-key', text: 'AccessDenied for AKIAIOSFODNN7EXAMPLE on s3://bucket', secret: 'AKIAIOSFODNN7EXAMPLE' },
  { rule: 'aws-key', text: 'session ASIAY34FZKBOKMUTVV7A expired', secret: 'ASIAY34FZKBOKMUTVV7A' },
  { rule: 'aws-key', text: 'secret=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  { rule: 'token', text: 'git push https://ghp_R8kQ2mV7xW1yZ4aB6cD9eF3gH5jK0lN2pS7t@github.com/o/r', secret: 'ghp_R8kQ2mV7xW1yZ4aB6cD9eF3gH5jK0lN2pS7t' },
  { rule: 'token', text: 'PRIVATE-TOKEN glpat-Xy9Zq8Wv7Ut6Sr5Qp4On rejected', secret: 'glpat-Xy9Zq8Wv7Ut6Sr5Qp4On' },
  { rule: 'token', text: 'slack said invalid_auth for xoxb-2048-4096-Ab3Cd4Ef5Gh6Ij7Kl8', secret: 'xoxb-2048-4096-Ab3Cd4Ef5Gh6Ij7Kl8' },
  { rule: 'token', text: 'charge failed with sk_live_51HxYz2Ab3Cd4Ef5Gh6Ij7Kl', secret: 'sk_live_51HxYz2Ab3Cd4Ef5Gh6Ij7Kl' },
  { rule: 'pem', text: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx3n+Q9z\n-----END RSA PRIVATE KEY-----', secret: 'MIIEowIBAAKCAQEAx3n+Q9z' },
  { rule: 'jwt', text: 'id_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlMTIz', secret: 'eyJzdWIiOiJhZGEifQ' },
  { rule: 'service-key', text: 'key dfsk_0123456789abcdefghijABCDEFGHIJ leaked', secret: 'dfsk_0123456789abcdefghijABCDEFGHIJ' },
  { rule: 'bearer', text: 'Authorization: Bearer opaque.Zx8c9A7f292c6912E7', secret: 'opaque.Zx8c9A7f292c6912E7' },
  { rule: 'url-password', text: 'postgres://app:Hunter2Secret@db.internal:5432/main', secret: 'Hunter2Secret' },
  { rule: 'secret', text: 'GET /api?key=k3yV4lu3Zq9&page=2', secret: 'k3yV4lu3Zq9' },
  { rule: 'secret', text: 'login form pw=Tr0ub4dor&user=ada', secret: 'Tr0ub4dor' },
  { rule: 'secret', text: 'Anmeldung passwort=Geheim99! fehlgeschlagen', secret: 'Geheim99!' },
  { rule: 'secret', text: '{"api_key": "live-2b7d9f1c", "user": 7}', secret: 'live-2b7d9f1c' },
  { rule: 'secret', text: 'POST body password=correct-horse-battery&remember=1', secret: 'correct-horse-battery' },
  { rule: 'card', text: 'paid with 4111.1111.1111.1111 today', secret: '4111.1111.1111.1111' },
  { rule: 'card', text: 'field card_5555555555554444 invalid', secret: '5555555555554444' },
  { rule: 'card', text: 'amex 3782-822463-10005 declined', secret: '3782-822463-10005' },
  { rule: 'iban', text: 'refund to de89 3704 0044 0532 0130 00 please', secret: '3704 0044 0532 0130 00' },
  { rule: 'iban', text: 'iban GB82WEST12345698765432', secret: 'WEST12345698765432' },
  { rule: 'email', text: 'mail to jürgen@bücher.de failed', secret: 'jürgen@bücher.de' },
  { rule: 'email', text: 'user ada＠example.com not found', secret: 'ada＠example.com' },
  { rule: 'email', text: 'invite?to=grace%40example.org', secret: 'grace%40example.org' },
  { rule: 'ip', text: 'connect ECONNREFUSED 10.12.0.7:5432', secret: '10.12.0.7' },
  { rule: 'ip', text: 'peer 2001:db8:85a3::8a2e:370:7334 reset', secret: '2001:db8:85a3::8a2e:370:7334' },
];

/** Text that only looks like a secret: it must come out as it went in. */
export const LOOK_ALIKES: readonly string[] = [
  'event 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 not found',
  'commit 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12 reverted',
  'sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'md5 d41d8cd98f00b204e9800998ecf8427e',
  'release web@1.4.2 and api@2.10.0-beta.3',
  'upgrade to v1.2.3.4 done',
  'Windows 10.0.19045.2965',
  'at 2026-11-25T10:00:00.123Z the job ran',
  'started 10:00:00, took 1732612345678 ms since epoch',
  'order 123456789012 shipped',
  'order #4111-2222 is late',
  'pi is 3.14159265358979',
  'render@https://cdn.example.com/app.js:10:5',
  'std::vector<int>::size failed',
  'Invalid token: expired',
  'author=Ada&sort=name',
  'token === undefined',
  'see https://docs.example.com/keys?page=2',
  'ratio 16:9 at 1920x1080',
  'TypeError: Cannot read properties of undefined (reading "price")',
];
