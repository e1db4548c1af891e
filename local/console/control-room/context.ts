import type { IncomingMessage, ServerResponse } from 'node:http';
import { ISSUE_ID_PATTERN } from '../../../lambda/ingest/issues/issue';
import { REPORT_ID_PATTERN } from '../../../lambda/ingest/issues/stored-event';
import { EXPORT_FORMATS } from '../../../lambda/control/export-format';
import { COMPANY_ID_PATTERN } from '../../../lambda/contacts/domain/company-id';
import { CONTACT_ID_PATTERN } from '../../../lambda/kernel/contact-id-digest';
import { FACTORY_ID_PATTERN } from '../../../lambda/kernel/factory-id';
import type { OperationName } from '../../../lambda/control/answers';
import type { ControlClient, ControlReply } from '../control/client';
import type { TypedReply } from '../control/typed-reply';
import type { Session } from './security';

/** What a route gets: the request, where to answer, the operations, the session. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  client: ControlClient;
  session: Session;
  /** Calls one control-room operation (the same ones `control` runs): its status and JSON object (a request it cannot read is its 400). */
  run(request: unknown): Promise<ControlReply>;
  /** Calls one operation by name, as run() does: its answer typed as the operation defines it, or its error. */
  ask<N extends OperationName>(request: OperationRequest<N>): Promise<TypedReply<N>>;
}

/** A request for operation N: its name, its factory, its own fields (checked by the operation). */
export type OperationRequest<N extends OperationName> = { operation: N; factoryId: string } & Record<string, unknown>;

/** A pattern's body, without its anchors: to build a path pattern from it. */
const unanchored = (pattern: RegExp) => pattern.source.replace(/^\^/, '').replace(/\$$/, '');

/**
 * The parameters a path may name (`/f/:factoryId/contacts/:contactId`), each
 * with the shape it must have, from where that shape is defined: a path whose
 * parameter does not match is no route (404), and no operation is called.
 */
export const PATH_PARAMETERS = {
  factoryId: unanchored(FACTORY_ID_PATTERN),
  contactId: unanchored(CONTACT_ID_PATTERN),
  companyId: unanchored(COMPANY_ID_PATTERN),
  issueId: unanchored(ISSUE_ID_PATTERN),
  eventId: unanchored(REPORT_ID_PATTERN),
  requestId: unanchored(REPORT_ID_PATTERN),
  format: EXPORT_FORMATS.join('|'),
} as const;
type ParameterName = keyof typeof PATH_PARAMETERS;

/** The names a path's `:name` parts give, each at the end of a path segment. */
type ParameterNames<Path extends string> = Path extends `${string}:${infer Rest}`
  ? Rest extends `${infer Name}/${infer Tail}`
    ? Name | ParameterNames<Tail>
    : Rest
  : never;

/** A route's parameters by name, as its handler receives them. */
export type PathParameters<Path extends string> = { readonly [Name in ParameterNames<Path>]: string };

/** A route: a method, a compiled path pattern with its parameters' names, and what it does. */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  match(pathname: string): Record<string, string> | undefined;
  handle(context: RouteContext, parameters: Record<string, string>): Promise<void>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A route from a path with named parameters: `route('GET',
 * '/f/:factoryId/companies/:companyId', (context, { factoryId, companyId }) => …)`.
 * Every name must be one of PATH_PARAMETERS (a type error otherwise).
 */
export function route<Path extends string>(
  method: Route['method'],
  path: Path & (ParameterNames<Path> extends ParameterName ? unknown : never),
  handle: (context: RouteContext, parameters: PathParameters<Path>) => Promise<void>,
): Route {
  const names: string[] = [];
  const source = path
    .split(/(:[A-Za-z]+)/)
    .map((part) => {
      if (!part.startsWith(':')) return escapeRegExp(part);
      const name = part.slice(1) as ParameterName;
      names.push(name);
      return `(${PATH_PARAMETERS[name]})`;
    })
    .join('');
  const pattern = new RegExp(`^${source}$`);
  return {
    method,
    path,
    match(pathname) {
      const found = pattern.exec(pathname);
      return found ? Object.fromEntries(names.map((name, index) => [name, found[index + 1] ?? ''])) : undefined;
    },
    // The pattern made an entry for every name of Path.
    handle: (context, parameters) => handle(context, parameters as PathParameters<Path>),
  };
}
