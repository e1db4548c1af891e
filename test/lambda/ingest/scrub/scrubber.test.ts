import { SCRUB_RULE_NAMES, type ScrubCounts } from '../../../../lambda/ingest/scrub/rule';
import { SCRUB_RULES, Scrubber, scrubText } from '../../../../lambda/ingest/scrub/scrubber';
import { SCRUBBED_METRIC } from '../../../../lambda/infrastructure/observability/names';
import { LOOK_ALIKES, POSITIVES } from '../../../support/scrub-corpus';

describe('scrubber', () => {
  test('applies every rule, in the order the rule names list them, and each rule has its metric', () => {
    expect(SCRUB_RULES.map((rule) => rule.name)).toEqual([...SCRUB_RULE_NAMES]);
    expect(Object.keys(SCRUBBED_METRIC).sort()).toEqual([...SCRUB_RULE_NAMES].sort());
  });

  test('a specific rule runs before a broader one: a JWT after Bearer counts as a JWT, a key in a query as a service key', () => {
    const counts = {};
    const text = scrubText('Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln and ?key=dfpk_0123456789abcdefXYZ&token=abc', counts);
    expect(text).toBe('Bearer [Filtered:jwt] and ?key=[Filtered:service-key]&token=[Filtered:secret]');
    expect(counts).toEqual({ jwt: 1, 'service-key': 1, secret: 1 });
  });

  test('counts add up over the fields of one report; a tag named like a credential loses its value whole', () => {
    const scrubber = new Scrubber();
    scrubber.text('a@example.com and b@example.com');
    expect(scrubber.tagValue('sessionToken', 'plain words')).toBe('[Filtered:secret]');
    expect(scrubber.tagValue('plan', 'pro')).toBe('pro');
    expect(scrubber.replaced).toEqual({ email: 2, secret: 1 });
    expect(new Scrubber().replaced).toBeUndefined();
  });
});

describe('the corpus (docs/privacy.md#scrubbing)', () => {
  test.each(POSITIVES.map((positive) => [positive.rule, positive.text, positive]))('%s: %s', (_rule, _text, positive) => {
    const counts: ScrubCounts = {};
    const out = scrubText(positive.text, counts);
    expect(out).not.toContain(positive.secret);
    expect(out).toContain(`[Filtered:${positive.rule}]`);
    expect(counts[positive.rule]).toBeGreaterThan(0);
  });

  test.each(LOOK_ALIKES.map((text) => [text]))('stays: %s', (text) => {
    const counts: ScrubCounts = {};
    expect(scrubText(text, counts)).toBe(text);
    expect(counts).toEqual({});
  });

  test('every rule has positives in the corpus', () => {
    expect(new Set(POSITIVES.map((positive) => positive.rule))).toEqual(new Set(SCRUB_RULE_NAMES));
  });
});
