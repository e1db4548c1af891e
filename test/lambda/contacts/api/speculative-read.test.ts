import { newContactsSlot } from '../../../../lambda/contacts/api/contacts-slot';
import { answerWhenConfirmed } from '../../../../lambda/contacts/api/speculative-read';
import type { Caller } from '../../../../lambda/infrastructure/http/request-state';
import { context, proxyEvent } from '../../../support/events';

/** A read that answers with the caller it ran for, and counts its runs. */
function read() {
  const runs: (string | undefined)[] = [];
  const route = async (_event: unknown, ctx: ReturnType<typeof speculating>) => {
    runs.push(ctx.state.caller?.factoryId);
    return { statusCode: 200, body: String(ctx.state.caller?.factoryId) };
  };
  return { runs, route };
}
/** A request whose read started beside its key check: the caller the container guessed, and the check still pending. */
function speculating(confirmation: Promise<Caller> | undefined, guessed: Caller = { factoryId: 'fac_a', keyId: 'key_a' }) {
  const ctx = context(newContactsSlot());
  ctx.state.caller = guessed;
  if (confirmation) ctx.state.slot.confirmation = confirmation;
  return ctx;
}

describe("a warm GET's read beside its key check", () => {
  test('is released once the key is confirmed, the read run once', async () => {
    const { runs, route } = read();
    const ctx = speculating(Promise.resolve({ factoryId: 'fac_a', keyId: 'key_a' }));
    expect((await answerWhenConfirmed(route)(proxyEvent(), ctx)).body).toBe('fac_a');
    expect(runs).toEqual(['fac_a']);
    expect(ctx.state.slot.confirmation).toBeUndefined();
  });

  test("is never released when the check refuses: the check's answer wins", async () => {
    const { route } = read();
    const refusal = Object.assign(new Error('{"error":"Rate limit exceeded"}'), { statusCode: 429 });
    await expect(answerWhenConfirmed(route)(proxyEvent(), speculating(Promise.reject(refusal)))).rejects.toBe(refusal);
  });

  test('the check wins over a failing read too', async () => {
    const refusal = Object.assign(new Error('{"error":"Unknown API key"}'), { statusCode: 401 });
    const failing = async () => {
      throw new Error('read failed');
    };
    await expect(answerWhenConfirmed(failing)(proxyEvent(), speculating(Promise.reject(refusal)))).rejects.toBe(refusal);
  });

  test('is done again for the confirmed caller when the key turned out to name another factory', async () => {
    const { runs, route } = read();
    const answer = await answerWhenConfirmed(route)(proxyEvent(), speculating(Promise.resolve({ factoryId: 'fac_b', keyId: 'key_a' })));
    expect([answer.body, runs]).toEqual(['fac_b', ['fac_a', 'fac_b']]);
  });

  test('a request that did not speculate runs its route as it is', async () => {
    const { runs, route } = read();
    expect((await answerWhenConfirmed(route)(proxyEvent(), speculating(undefined))).body).toBe('fac_a');
    expect(runs).toEqual(['fac_a']);
  });
});
