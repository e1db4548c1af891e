import type * as z from 'zod/mini';
import type { Caller, ControlDependencies } from './ports';
import { requestFields, type RequestField } from './request-fields';

/**
 * The one shape of a control-room operation: its request schema (strict:
 * a misspelt key is an error naming the keys it takes), the defaults it
 * fills in, and what it runs. Each group of operations is a table of these
 * (contact-operations.ts, enrichment-operations.ts, issue-operations.ts,
 * key-operations.ts, report-operations.ts), merged in ./operations.ts.
 */

/** What the audit line says about an operation: names and counts, never a field's value. */
export type AuditFields = Record<string, string | number | boolean | string[] | undefined>;

/** What an operation answers (200): its JSON object, and what the audit line adds. */
export interface Done {
  body: Record<string, unknown>;
  audit: AuditFields;
}

/** What every operation runs with besides its request. */
export interface RunContext {
  deps: ControlDependencies;
  caller: Caller;
  /** The call's time, read once. */
  now: Date;
  /** Bulk runs: asked before each new page; false ends the call with a cursor. */
  keepGoing: () => boolean;
}

/**
 * A control-room failure and the status it answers, in the operation's own
 * words: 400 a request to fix, 404 nothing there, 500 a function deployed
 * without what the operation needs.
 */
export class ControlError extends Error {
  override readonly name = 'ControlError';
  constructor(
    readonly status: 400 | 404 | 500,
    message: string,
  ) {
    super(message);
  }
}

/** The request every operation takes: its factory, and the operation's own fields. */
type RequestSchema = z.ZodMiniObject<z.core.$ZodShape, z.core.$strict>;
type Parsed<S extends RequestSchema> = z.output<S>;

/** A request checked and completed, and the run it leads to. */
export interface ReadRequest {
  /** As the operation takes it: its name, its fields, the defaults filled in. */
  request: { operation: string; factoryId: string } & Record<string, unknown>;
  /** The audited fields' values (fields.ts, FieldMeta.audited): what the audit line names besides the operation and factory. */
  audit: AuditFields;
  run(context: RunContext): Promise<Done>;
}

/** One entry of an operation table. */
export interface ControlOperation {
  /** Every key its request takes, `operation` first: what the error for an unknown key names. */
  readonly keys: readonly string[];
  /** Its request's fields, `operation` aside: their flags, kinds and whether the audit line names them. */
  readonly fields: readonly RequestField[];
  /** Checks `fields` (the request without `operation`) and fills in the defaults; throws ControlError 400 saying what to fix. */
  read(name: string, fields: Record<string, unknown>, hint?: string): ReadRequest;
}

function problems(error: z.core.$ZodError, hint: string): string {
  return error.issues
    .map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}: ${hint}`
        : issue.message,
    )
    .join('; ');
}

/** An operation from its request schema, its defaults (none: the request as parsed) and its run. */
export function operation<S extends RequestSchema, R extends { factoryId: string }>(spec: {
  request: S;
  /** Fills in what the caller left out; may refuse what the schema cannot say (throw ControlError 400). */
  defaults: (parsed: Parsed<S>) => R;
  run: (request: R, context: RunContext) => Promise<Done>;
}): ControlOperation;
export function operation<S extends RequestSchema & { _zod: { output: { factoryId: string } } }>(spec: {
  request: S;
  run: (request: Parsed<S>, context: RunContext) => Promise<Done>;
}): ControlOperation;
export function operation(spec: {
  request: RequestSchema;
  defaults?: (parsed: Record<string, unknown>) => { factoryId: string };
  run: (request: never, context: RunContext) => Promise<Done>;
}): ControlOperation {
  const keys = ['operation', ...Object.keys(spec.request.shape)];
  const described = requestFields(spec.request.shape);
  const audited = described.filter((field) => field.audited).map((field) => field.key);
  const run = spec.run as (request: { factoryId: string }, context: RunContext) => Promise<Done>;
  return {
    keys,
    fields: described,
    read(name, fields, hint = `${name} takes ${keys.join(', ')}`) {
      const result = spec.request.safeParse(fields);
      if (!result.success) throw new ControlError(400, problems(result.error, hint));
      const parsed = result.data as Record<string, unknown> & { factoryId: string };
      const request = spec.defaults ? spec.defaults(parsed) : parsed;
      const audit = Object.fromEntries(audited.flatMap((key) => (typeof parsed[key] === 'string' ? [[key, parsed[key]]] : [])));
      return { request: { operation: name, ...request }, audit, run: (context) => run(request, context) };
    },
  };
}

/** `{cursor}` when a list goes on, nothing at its end. */
export const withCursor = (next: string | undefined): { cursor?: string } => (next === undefined ? {} : { cursor: next });
