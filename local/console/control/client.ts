import { userInfo } from 'node:os';
import { LOCAL_POLICY } from '../../../lambda/alerts/address-policy';
import { controlDependencies } from '../../../lambda/control/control-room-wiring';
import { mapReaderFromEnv } from '../../../lambda/infrastructure/store/source-maps/s3-map-reader';
import { sourceMapBudgetFromEnv } from '../../../lambda/ingest/sourcemaps/limits';
import { handleControlRequest } from '../../../lambda/control/handle-request';
import { ControlError } from '../../../lambda/control/operation';
import { parseControlRequest } from '../../../lambda/control/request';
import { platformName } from '../../../lambda/contacts/enrichment/config';
import { OUTPUTS } from '../../../lib/outputs';
import { UsageError } from '../../harness/cli';
import { SetupError } from '../../harness/setup-error';
import { localLinkBase } from '../../harness/control-rooms';
import { connectStore, stackOutputs, type StoreConnection, type StoreTarget } from '../../harness/store';
import { DEFAULT_API_PORT } from '../../harness/paths';
import type { TableNames } from '../../../lambda/infrastructure/store/schema';
import { functionUrlRegion, signedPost } from './signed-post';

/** A control-room request, as the function takes it: `{"operation": "contacts.list", "factoryId": …}`. */
export type ControlCall = { operation: string; factoryId: string } & Record<string, unknown>;

/**
 * Where the `control` command sends its requests: the same operations,
 * in this process on the local store, or through a deployed stack's
 * control-room function. Answers are the function's JSON objects; an error
 * answer is thrown as a one-line SetupError.
 */
export interface ControlClient {
  /** For messages: the local store, or the function URL. */
  where: string;
  /** The service's API, when known (the running npm start's, a stack's ApiUrl output): where a new key's Sentry DSN points. */
  apiUrl?: string;
  /** The answer's JSON object; an error answer is thrown as a one-line SetupError. */
  call(request: ControlCall): Promise<Record<string, unknown>>;
  /** The answer as it is, error or not: its status and JSON object (`{"error"}` in the operation's words). */
  send(request: unknown): Promise<ControlReply>;
  close(): Promise<void>;
}

/**
 * Checks a request as the function will, before anything is connected: a
 * bad one is a usage error in the operation's words (`wording` may name the
 * command's option instead of the request's key).
 */
export function checkedCall<T extends ControlCall>(request: T, wording: (message: string) => string = (message) => message): T {
  try {
    parseControlRequest(request);
  } catch (error) {
    if (error instanceof ControlError) throw new UsageError(wording(error.message));
    throw error;
  }
  return request;
}

export interface ControlReply {
  status: number;
  body: Record<string, unknown>;
}

/** call() on top of send(): the body of a 200, otherwise the error as a SetupError. */
function throwingCall(send: (request: unknown) => Promise<ControlReply>, describe: (reply: ControlReply) => string) {
  return async (request: ControlCall): Promise<Record<string, unknown>> => {
    const reply = await send(request);
    if (reply.status === 200) return reply.body;
    throw new SetupError(describe(reply));
  };
}

export interface ControlTarget {
  stack?: string;
  region?: string;
  /** A function URL given directly instead of the stack's ControlRoomUrl output. */
  url?: string;
}

/** The principal of a local run, written into `cleared` records: there is no IAM caller on one machine. */
export const localPrincipal = (): string => `local:${userInfo().username}`;

/** Where a DSN points when no running server or stack says: npm start's default port. */
const DEFAULT_LOCAL_API = `http://localhost:${process.env.PORT ?? DEFAULT_API_PORT}`;

/**
 * The control room on a store: the one `npm start` uses (or DYNAMODB_ENDPOINT),
 * or with `stack` a deployed stack's tables, reached with your own AWS
 * credentials (the keys command's way when the control-room function is
 * not reachable). The function's own request handling, in this process,
 * with the local user as the principal.
 */
export async function storeClient(
  target: StoreTarget = {},
  need: (keyof TableNames)[] = ['contacts', 'reference', 'keys', 'reports', 'alerts'],
): Promise<ControlClient> {
  return clientOfStore(await connectStore(target, need), target);
}

/** The operations run in this process on a connected store (closing the client closes the store). */
export function clientOfStore(store: StoreConnection, target: StoreTarget = {}): ControlClient {
  const deps = controlDependencies(store.doc, store.tables, platformName(), {
    keys: store.tables.keys,
    reports: store.tables.reports,
    alerts: store.tables.alerts,
    // On one's own machine a webhook receiver on loopback may be tested (docs/alerts.md#outbound-requests).
    alertPolicy: LOCAL_POLICY,
    defaultRateLimit: store.defaultRateLimit,
    // The maps npm start's functions read (its embedded store), else the environment's (S3_ENDPOINT, SOURCE_MAPS_BUCKET).
    sourceMaps: mapReaderFromEnv(store.maps ?? process.env),
    sourceMapBudgetMs: sourceMapBudgetFromEnv(process.env),
    // A test alert links to the control room open on this machine, whatever its port.
    linkBase: localLinkBase,
  });
  const caller = { principal: localPrincipal() };
  const send = async (request: unknown): Promise<ControlReply> => {
    const answer = await handleControlRequest(deps, request, caller);
    if (answer.status < 500 || answer.audit.error === undefined) return { status: answer.status, body: answer.body };
    // On one's own machine the cause of a 5xx is worth showing (the function only logs it).
    return { status: answer.status, body: { error: `${String(answer.body.error)} (${String(answer.audit.errorClass)}: ${String(answer.audit.error)})` } };
  };
  return {
    where: store.where,
    apiUrl: store.apiUrl ?? (target.stack === undefined ? DEFAULT_LOCAL_API : undefined),
    send,
    call: throwingCall(send, (reply) => String(reply.body.error)),
    close: () => store.close(),
  };
}

/** The deployed function, through its URL, each call SigV4-signed with your AWS credentials. */
function remoteClient(url: URL, region: string | undefined, apiUrl?: string): ControlClient {
  const signingRegion = functionUrlRegion(url) ?? region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (!signingRegion) throw new SetupError(`cannot tell the region of ${url.href}: add --region`);
  const send = async (request: unknown): Promise<ControlReply> => {
    let answer: Awaited<ReturnType<typeof signedPost>>;
    try {
      answer = await signedPost(url, JSON.stringify(request), { region: signingRegion });
    } catch (error) {
      throw new SetupError(`could not reach the control room at ${url.href}: ${error instanceof Error ? error.message : String(error)}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = undefined;
    }
    const object = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
    if (answer.status === 200 && object) return { status: 200, body: object };
    // 403 without our {"error"}: IAM refused the signature or the caller.
    const why = typeof object?.error === 'string' ? object.error : typeof object?.Message === 'string' ? object.Message : answer.text.slice(0, 200);
    return { status: answer.status === 200 ? 502 : answer.status, body: { error: why } };
  };
  return {
    where: url.href,
    ...(apiUrl === undefined ? {} : { apiUrl }),
    send,
    call: throwingCall(send, (reply) => `the control room answered ${reply.status}: ${String(reply.body.error)}`),
    close: async () => undefined,
  };
}

/** The client for the command line's target: --url, --stack (its ControlRoomUrl output), or the local store. */
export async function connectControl(target: ControlTarget): Promise<ControlClient> {
  if (target.url !== undefined) return remoteClient(new URL(target.url), target.region);
  if (target.stack !== undefined) {
    const outputs = await stackOutputs(target.stack, target.region);
    const url = outputs[OUTPUTS.controlRoomUrl];
    if (!url) throw new SetupError(`stack "${target.stack}" has no ${OUTPUTS.controlRoomUrl} output: deploy this version of the service first`);
    return remoteClient(new URL(url), target.region, outputs[OUTPUTS.apiUrl]);
  }
  return storeClient();
}
