import type { Context, LambdaFunctionURLEventWithIAMAuthorizer } from 'aws-lambda';
import type { UrlResult } from '../../lambda/control/function-url';
import { linesWrittenBy } from './output';

/** The ARN a function URL with AWS_IAM auth reports for the control room's role. */
export const CONTROL_ROOM_ARN = 'arn:aws:sts::123456789012:assumed-role/ControlRoom/operator-session';

export interface UrlEventOptions {
  /** The caller's ARN; null for a URL without IAM auth. */
  principal?: string | null;
  method?: string;
  path?: string;
  /** The body as sent; a request object is sent as JSON. */
  raw?: string;
  base64?: boolean;
}

/** A function URL invocation (payload format 2.0) as Lambda hands it to the control-room function. */
export function urlEvent(request: unknown, options: UrlEventOptions = {}): LambdaFunctionURLEventWithIAMAuthorizer {
  const text = options.raw ?? JSON.stringify(request);
  const principal = options.principal === undefined ? CONTROL_ROOM_ARN : options.principal;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: options.path ?? '/',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', host: 'abc.lambda-url.eu-west-1.on.aws' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc',
      domainName: 'abc.lambda-url.eu-west-1.on.aws',
      domainPrefix: 'abc',
      http: { method: options.method ?? 'POST', path: options.path ?? '/', protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' },
      requestId: 'url-request-id',
      routeKey: '$default',
      stage: '$default',
      time: '21/Nov/2026:09:30:00 +0000',
      timeEpoch: 1795253400000,
      authorizer:
        principal === null
          ? (undefined as never)
          : {
              iam: {
                accessKey: 'ASIAEXAMPLE',
                accountId: '123456789012',
                callerId: 'AROAEXAMPLE:operator-session',
                cognitoIdentity: null,
                principalOrgId: 'o-example',
                userArn: principal,
                userId: 'AROAEXAMPLE:operator-session',
              },
            },
    },
    body: options.base64 ? Buffer.from(text).toString('base64') : text,
    isBase64Encoded: options.base64 === true,
  };
}

/** A Lambda context with `remainingMs` left. */
export const lambdaContext = (remainingMs = 300_000): Context =>
  ({ awsRequestId: 'lambda-request-id', getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;

export type ControlHandler = (event: unknown, context: Context) => Promise<UrlResult | { error: string }>;

/**
 * The control-room Lambda entry point, loaded fresh with its logger at INFO
 * (the tests are otherwise silent), and a call that returns the answer with
 * the log lines it wrote.
 */
export function loadControlHandler(env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, { LOG_LEVEL: 'INFO', ...env });
  let handler!: ControlHandler;
  jest.isolateModules(() => {
    ({ handler } = require('../../lambda/control/control-room-entry'));
  });
  for (const key of ['LOG_LEVEL', ...Object.keys(env)]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }

  /** Invokes the handler; the log lines it wrote (stdout and stderr) come back parsed. */
  async function invoke(event: unknown, context = lambdaContext()) {
    const { value: result, lines } = await linesWrittenBy(() => handler(event, context));
    return { result, lines: lines as Record<string, unknown>[] };
  }

  /** A signed call: status and parsed body, with the log lines. */
  async function call(request: unknown, options: UrlEventOptions = {}) {
    const { result, lines } = await invoke(urlEvent(request, options));
    const url = result as UrlResult;
    return { status: url.statusCode, body: JSON.parse(url.body) as Record<string, any>, headers: url.headers, lines };
  }

  return { handler, invoke, call };
}
