import { sentryProjectId } from '../../../lambda/kernel/sentry-project';

describe("a publishable key's Sentry project id", () => {
  test('is 15 decimal digits, the same for the same key id every time', () => {
    const id = sentryProjectId('key_0123456789abcdef');
    expect(id).toMatch(/^\d{15}$/);
    expect(sentryProjectId('key_0123456789abcdef')).toBe(id);
  });

  test('differs between keys', () => {
    const ids = new Set(Array.from({ length: 200 }, (_, i) => sentryProjectId(`key_${i.toString(16).padStart(16, '0')}`)));
    expect(ids.size).toBe(200);
  });

  test('never starts with 0, so a parser that reads it as an integer keeps all 15 digits', () => {
    for (let i = 0; i < 500; i++) {
      const id = sentryProjectId(`key_${i.toString(16).padStart(16, '0')}`);
      expect(String(Number(id))).toBe(id);
    }
  });
});
