import { isSensitiveKey, secretValueRule } from '../../../../lambda/ingest/scrub/secret-value';
import { applied } from '../../../support/scrub';

describe('secret rule (values of credential-like keys)', () => {
  test.each([
    ['https://h/login?user=ada&password=hunter2#top', 'https://h/login?user=ada&password=[Filtered:secret]#top'],
    ['?access_token=abc&X-Amz-Signature=9f2c', '?access_token=[Filtered:secret]&X-Amz-Signature=[Filtered:secret]'],
    ['db_password=hunter2 retrying', 'db_password=[Filtered:secret] retrying'],
    ['{"apiKey": "abc", "user": "ada"}', '{"apiKey": "[Filtered:secret]", "user": "ada"}'],
    ['{\\"client_secret\\":\\"s3cr3t\\"}', '{\\"client_secret\\":\\"[Filtered:secret]\\"}'],
    ["{'auth': 'xyz'}", "{'auth': '[Filtered:secret]'}"],
    ['X-Api-Key: 9f2c8e7a6b5d', 'X-Api-Key: [Filtered:secret]'],
    ['Cookie: sessionid=Zm9vYmFy; theme=dark', 'Cookie: [Filtered:secret]; theme=dark'],
    ['Cookie: theme=dark; sessionid=Zm9vYmFy', 'Cookie: [Filtered:secret]; sessionid=[Filtered:secret]'],
    ['passwd="with space"', 'passwd="[Filtered:secret]"'],
    ['https://h/?key=abcdef123&page=2', 'https://h/?key=[Filtered:secret]&page=2'],
    ['login pw=hunter2', 'login pw=[Filtered:secret]'],
    ['passwort=geheim123&user=ada', 'passwort=[Filtered:secret]&user=ada'],
    ['form user=ada&db_pw=x1', 'form user=ada&db_pw=[Filtered:secret]'],
    // Not quite JSON: the first value's closing quote is the next key's opening quote (found by scrubber.property).
    ['{"jwta": "{"password": "toLocaleStringto"}", "n": 2}', '{"jwta": "[Filtered:secret]"password": "[Filtered:secret]"}", "n": 2}'],
  ])('replaces the value and keeps the key: %s', (text, expected) => {
    expect(applied(secretValueRule, text).text).toBe(expected);
  });

  test.each([
    ['prose with a colon', 'Invalid token: expired'],
    ['a key that only contains "auth"', 'author=Ada'],
    ['a comparison', 'token === undefined'],
    ['a URL scheme', 'https://auth.example.com/x'],
    ['a value already replaced', 'password=[Filtered:card]'],
    ['an ordinary query', '?page=2&sort=name'],
  ])('keeps %s', (_, text) => {
    expect(applied(secretValueRule, text)).toEqual({ text, count: 0 });
  });

  test.each([
    'password',
    'PASSWORD',
    'X-Auth-Token',
    'authToken',
    'client_secret',
    'apiKey',
    'api-key',
    'csrftoken',
    'private_key',
    'sig',
    'Authorization',
    'sessionId',
  ])('%s names a credential', (key) => expect(isSensitiveKey(key)).toBe(true));

  test('reads each character a bounded number of times: 62 KB of key-like text is scrubbed in well under a second of CPU', () => {
    const text = `x=${'key'.repeat(21_000)}`;
    const started = process.cpuUsage();
    applied(secretValueRule, text);
    applied(secretValueRule, `${'token="'.repeat(9_000)}`);
    applied(secretValueRule, `${'a_token: '.repeat(7_000)}`);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(500);
  });

  test.each(['author', 'plan', 'user', 'keyboard', 'email', 'release', 'sort_key', 'keyId'])('%s does not', (key) => {
    expect(isSensitiveKey(key)).toBe(false);
  });
});
