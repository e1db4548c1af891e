import type { ControlAnswers, OperationName } from '../../../lambda/control/answers';
import type { ControlReply } from './client';

/**
 * A reply read as its operation answers: on 200 the answer typed where the
 * operation is defined (lambda/control/answers.ts), otherwise the error in
 * the operation's words. `ok` tells them apart.
 */
export type TypedReply<N extends OperationName> = { ok: true; status: 200; body: ControlAnswers[N] } | { ok: false; status: number; body: { error: string } };

/** The reply to a request for operation N: a 200's body is the JSON object that operation's run returned. */
export function typedReply<N extends OperationName>(reply: ControlReply): TypedReply<N> {
  if (reply.status === 200) return { ok: true, status: 200, body: reply.body as unknown as ControlAnswers[N] };
  const { error } = reply.body;
  return { ok: false, status: reply.status, body: { error: typeof error === 'string' ? error : JSON.stringify(reply.body) } };
}
