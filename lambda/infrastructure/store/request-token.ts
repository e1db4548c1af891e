import type { AttributePath, Condition, Expression, Operand } from './expression';

/**
 * Not this very request again: the write records its request's token in
 * `attribute` and requires another one there. An SDK retry of a write that
 * landed (its answer lost) fails this condition, and the item returned with
 * the failure carries our token: the caller counts the request once.
 */
export function notRepeated(expression: Expression, attribute: AttributePath, token: Operand): Condition {
  return expression.or(expression.notExists(attribute), expression.is(attribute, '<>', token));
}
