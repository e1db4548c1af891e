import { CANARY_EMAIL, CANARY_FACTORY_ID, CANARY_KEY_REFUSED, isCanaryFactory } from '../../../lambda/kernel/canary';
import { normalizeEmail } from '../../../lambda/kernel/email';
import { FACTORY_ID_PATTERN } from '../../../lambda/kernel/factory-id';

describe('the canary factory of the pre-traffic check', () => {
  test('is a well-formed factory id, and only it is the canary', () => {
    expect(FACTORY_ID_PATTERN.test(CANARY_FACTORY_ID)).toBe(true);
    expect(isCanaryFactory(CANARY_FACTORY_ID)).toBe(true);
    for (const other of ['fac_demo', 'fac_canary2', 'FAC_CANARY', ' fac_canary']) expect(isCanaryFactory(other)).toBe(false);
  });

  test("its one contact's email is a valid address, already in stored form, on a domain no mail can reach (.invalid)", () => {
    expect(normalizeEmail(CANARY_EMAIL)).toEqual({ ok: true, email: CANARY_EMAIL });
    expect(CANARY_EMAIL.endsWith('.invalid')).toBe(true);
  });

  test('the refusal of a key for it names the factory and where the check is documented', () => {
    expect(CANARY_KEY_REFUSED).toContain(CANARY_FACTORY_ID);
    expect(CANARY_KEY_REFUSED).toContain('docs/deploying.md#the-pre-traffic-check');
  });
});
