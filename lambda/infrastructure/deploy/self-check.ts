/**
 * The event the pre-traffic hook sends a function to make it check its own
 * storage path (docs/deploying.md#the-pre-traffic-check). API Gateway never
 * sends it (its events always carry `httpMethod`), so no caller of the API
 * can: only a principal allowed to invoke the function directly, which in
 * the stack is the hook, for the new version only.
 */
export const SELF_CHECK_EVENT = { preTrafficSelfCheck: 'canary-contact' } as const;

export function isSelfCheckEvent(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as Record<string, unknown>).preTrafficSelfCheck === SELF_CHECK_EVENT.preTrafficSelfCheck;
}

/** What a self-check answers: a status the hook compares, and a JSON body saying what was checked or what failed. */
export interface SelfCheckAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export const selfCheckAnswer = (statusCode: number, body: Record<string, unknown>): SelfCheckAnswer => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
