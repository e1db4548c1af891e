import type { ApiContext, Caller } from '../types';

/** The authenticated caller; routes only run after `authenticate` set it. */
export function callerOf(context: ApiContext): Caller {
  if (!context.caller) throw new Error('route reached without an authenticated caller');
  return context.caller;
}
