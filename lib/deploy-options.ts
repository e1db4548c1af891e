/**
 * The options a platform team sets per deployment (`cdk deploy -c name=value`,
 * or `context` in cdk.json), typed and checked in one place. Free of CDK
 * imports: the `keys` command reads the rate-limit range from here too.
 */
import { DEFAULT_LINK_BASE } from '../lambda/alerts/payload';
import { DEFAULT_PLATFORM_NAME } from '../lambda/contacts/enrichment/config';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../lambda/kernel/limits';
import { DEFAULT_REPORT_RETENTION_DAYS } from '../lambda/ingest/limits';
import { LOG_LEVELS, type LogLevel } from '../lambda/infrastructure/observability/names';
import { MAX_BAKE_MINUTES } from '../lambda/infrastructure/deploy/hook-timing';

export { LOG_LEVELS, type LogLevel };

export const REMOVAL_POLICIES = ['retain', 'destroy'] as const;
export type RemovalPolicyOption = (typeof REMOVAL_POLICIES)[number];

/**
 * How CodeDeploy moves traffic to a new version (lib/gradual-deployment.ts):
 * `canary`, 10 % for 5 minutes then all; `all-at-once`, for a development
 * stack. Both run the pre-traffic check first and roll back on an alarm.
 */
export const TRAFFIC_SHIFTS = ['canary', 'all-at-once'] as const;
export type TrafficShift = (typeof TRAFFIC_SHIFTS)[number];

/** Minutes a release is watched after all traffic moved to it (lib/gradual-deployment.ts): 0 (none, off production) to what a hook can hold. */
export const BAKE_MINUTES_RANGE = { min: 0, max: MAX_BAKE_MINUTES } as const;

/** Provisioned concurrency of the contacts API's alias: none (0) up to Lambda's default account concurrency. */
export const PROVISIONED_CONCURRENCY_RANGE = { min: 0, max: 1000 } as const;

/** The retention periods CloudWatch Logs accepts, in days. */
export const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;

/** Per-key limits, requests per minute: the same range the `keys` command accepts. */
export const RATE_LIMIT_RANGE = { min: 1, max: 1_000_000 } as const;

/** Days the ingest API's reports may be kept: a day to ten years. */
export const REPORT_RETENTION_RANGE = { min: 1, max: 3650 } as const;

/** Lambda's memory range, MB. */
export const MEMORY_RANGE = { min: 128, max: 10_240 } as const;

/** The stage that counts as production: its data can never be set to be destroyed with the stack. */
export const PRODUCTION_STAGE = 'prod';

export interface DeployOptions {
  /** API Gateway stage, the last segment of the API URL. */
  stageName: string;
  /** The contacts API's requests per second at the gateway, all keys together (each of its methods: lib/route-throttles.ts). */
  throttleRate: number;
  /** The contacts API's burst at the gateway. */
  throttleBurst: number;
  /** The ingest API's requests per second at the gateway (each of its two routes, the own and the Sentry protocol): its storms stop there. */
  ingestThrottleRate: number;
  ingestThrottleBurst: number;
  /** The source maps upload API's requests per second at the gateway. */
  sourceMapsThrottleRate: number;
  sourceMapsThrottleBurst: number;
  /** Create the account-level role API Gateway writes access logs with (one per account and region). */
  cloudWatchRole: boolean;
  /** `enrichment.provider` on enriched contacts: the platform's own name. */
  platformName: string;
  /** The control room's IAM role: the one principal granted the control-room function URL. */
  controlRoomRoleArn?: string;
  /** Requests per minute of keys created for this stack without `--rate-limit` (a stack output `keys --stack` reads). */
  defaultRateLimit: number;
  /** Days the Lambda functions' logs are kept. */
  logRetentionDays: number;
  /** Days API Gateway's access logs are kept. */
  accessLogRetentionDays: number;
  /** Subscribed to the alarm topic (SNS asks the address to confirm). */
  alarmEmail?: string;
  /** Memory of the API function, MB (CPU grows with it). */
  apiMemoryMb: number;
  /** `LOG_LEVEL` of both functions. */
  logLevel: LogLevel;
  /** What deleting the stack does to the tables and logs; `destroy` only on a non-production stage. */
  removalPolicy: RemovalPolicyOption;
  /** Days an event or feature request is kept before DynamoDB's TTL removes it. */
  reportRetentionDays: number;
  /** How a new version of each function takes traffic. */
  trafficShift: TrafficShift;
  /** Minutes each release is watched by its own alarms after all traffic moved to it; 0 only off production. */
  bakeMinutes: number;
  /** Execution environments kept initialized on the contacts API's `live` alias; 0: none. */
  provisionedConcurrency: number;
  /** Subscribed to the platform team's issue-alert topic (comma-separated; SNS asks each to confirm). */
  alertEmails: string[];
  /** Where the links in alert payloads point: the control room's web app (docs/alerts.md#the-payload). */
  alertLinkBase: string;
}

export const DEFAULT_DEPLOY_OPTIONS: Readonly<DeployOptions> = {
  stageName: PRODUCTION_STAGE,
  throttleRate: 1000,
  throttleBurst: 2000,
  ingestThrottleRate: 500,
  ingestThrottleBurst: 1000,
  sourceMapsThrottleRate: 20,
  sourceMapsThrottleBurst: 40,
  cloudWatchRole: true,
  platformName: DEFAULT_PLATFORM_NAME,
  defaultRateLimit: DEFAULT_RATE_LIMIT_PER_MINUTE,
  logRetentionDays: 30,
  accessLogRetentionDays: 90,
  apiMemoryMb: 1024,
  logLevel: 'INFO',
  removalPolicy: 'retain',
  reportRetentionDays: DEFAULT_REPORT_RETENTION_DAYS,
  trafficShift: 'canary',
  bakeMinutes: 10,
  provisionedConcurrency: 0,
  alertEmails: [],
  alertLinkBase: DEFAULT_LINK_BASE,
};

/** A bad option value; the message names the option and what it accepts. */
export class DeployOptionError extends Error {
  constructor(name: string, raw: unknown, expected: string) {
    super(`-c ${name}=${String(raw)}: expected ${expected}`);
    this.name = 'DeployOptionError';
  }
}

type Parser<T> = (raw: unknown, name: string) => T;

/** Context values given with -c arrive as strings; cdk.json and props give numbers and booleans. */
const text = (raw: unknown): string | undefined =>
  typeof raw === 'string' ? raw.trim() : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;

const matching =
  (pattern: RegExp, expected: string): Parser<string> =>
  (raw, name) => {
    const value = text(raw);
    if (value === undefined || !pattern.test(value)) throw new DeployOptionError(name, raw, expected);
    return value;
  };

const wholeNumber =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    const value = Number(text(raw) ?? NaN);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new DeployOptionError(name, raw, `a whole number from ${min} to ${max}`);
    }
    return value;
  };

const positiveNumber: Parser<number> = (raw, name) => {
  const value = Number(text(raw) ?? NaN);
  if (!Number.isFinite(value) || value <= 0) throw new DeployOptionError(name, raw, 'a positive number');
  return value;
};

const positiveInteger: Parser<number> = (raw, name) => {
  const value = Number(text(raw) ?? NaN);
  if (!Number.isSafeInteger(value) || value <= 0) throw new DeployOptionError(name, raw, 'a positive whole number');
  return value;
};

const oneOf =
  <T extends string>(values: readonly T[], normalize: (value: string) => string): Parser<T> =>
  (raw, name) => {
    const value = normalize(text(raw) ?? '');
    const found = values.find((candidate) => candidate === value);
    if (!found) throw new DeployOptionError(name, raw, `one of ${values.join(', ')}`);
    return found;
  };

const bool: Parser<boolean> = (raw, name) => {
  const value = text(raw)?.toLowerCase();
  if (value !== 'true' && value !== 'false') throw new DeployOptionError(name, raw, 'true or false');
  return value === 'true';
};

const EMAIL = /^[^@\s,]+@[^@\s,]+\.[^@\s,]+$/;

/** A list of addresses: comma-separated text (-c alertEmails=a@x.io,b@x.io) or a JSON list in cdk.json. */
const emailList: Parser<string[]> = (raw, name) => {
  const list = Array.isArray(raw)
    ? raw.map((entry) => text(entry) ?? '')
    : (text(raw) ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
  if (list.length > 20 || !list.every((entry) => EMAIL.test(entry))) throw new DeployOptionError(name, raw, 'at most 20 email addresses, separated by commas');
  return [...new Set(list)];
};

const httpUrl: Parser<string> = (raw, name) => {
  const value = text(raw) ?? '';
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search !== '' || url.hash !== '')
    throw new DeployOptionError(name, raw, 'an http(s) URL without query or fragment, like https://control.example.com');
  return value.replace(/\/+$/, '');
};

const retentionDays: Parser<number> = (raw, name) => {
  const value = Number(text(raw) ?? NaN);
  if (!(LOG_RETENTION_DAYS as readonly number[]).includes(value)) {
    throw new DeployOptionError(name, raw, `a number of days CloudWatch Logs accepts: ${LOG_RETENTION_DAYS.join(', ')}`);
  }
  return value;
};

/** Every option with a value: what a given option parses to. */
type OptionValues = { [K in keyof DeployOptions]-?: NonNullable<DeployOptions[K]> };

const PARSERS: { [K in keyof OptionValues]: Parser<OptionValues[K]> } = {
  // API Gateway's rule for stage names.
  stageName: matching(/^[A-Za-z0-9_-]{1,128}$/, 'letters, digits, - or _ (at most 128)'),
  throttleRate: positiveNumber,
  throttleBurst: positiveInteger,
  ingestThrottleRate: positiveNumber,
  ingestThrottleBurst: positiveInteger,
  sourceMapsThrottleRate: positiveNumber,
  sourceMapsThrottleBurst: positiveInteger,
  cloudWatchRole: bool,
  platformName: matching(/^\S(.{0,98}\S)?$/, 'a name of 1 to 100 characters'),
  controlRoomRoleArn: matching(/^arn:aws[a-z-]*:iam::\d{12}:role\/\S+$/, 'an IAM role ARN (arn:aws:iam::<account>:role/<name>)'),
  defaultRateLimit: wholeNumber(RATE_LIMIT_RANGE.min, RATE_LIMIT_RANGE.max),
  logRetentionDays: retentionDays,
  accessLogRetentionDays: retentionDays,
  alarmEmail: matching(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'an email address'),
  apiMemoryMb: wholeNumber(MEMORY_RANGE.min, MEMORY_RANGE.max),
  logLevel: oneOf(LOG_LEVELS, (value) => value.toUpperCase()),
  removalPolicy: oneOf(REMOVAL_POLICIES, (value) => value.toLowerCase()),
  reportRetentionDays: wholeNumber(REPORT_RETENTION_RANGE.min, REPORT_RETENTION_RANGE.max),
  trafficShift: oneOf(TRAFFIC_SHIFTS, (value) => value.toLowerCase()),
  bakeMinutes: wholeNumber(BAKE_MINUTES_RANGE.min, BAKE_MINUTES_RANGE.max),
  provisionedConcurrency: wholeNumber(PROVISIONED_CONCURRENCY_RANGE.min, PROVISIONED_CONCURRENCY_RANGE.max),
  alertEmails: emailList,
  alertLinkBase: httpUrl,
};

/** Every option's name: the context keys bin/contacts.ts reads. */
export const DEPLOY_OPTION_NAMES = Object.keys(PARSERS) as (keyof DeployOptions)[];

function parseInto<K extends keyof OptionValues>(target: Partial<OptionValues>, name: K, raw: unknown): void {
  const parse: Parser<OptionValues[K]> = PARSERS[name];
  target[name] = parse(raw, name);
}

/**
 * Options with defaults filled in, each checked; throws a DeployOptionError
 * naming the first bad one. Takes raw context values or typed props alike.
 */
export function resolveDeployOptions(given: { [K in keyof DeployOptions]?: unknown }): DeployOptions {
  const parsed: Partial<OptionValues> = {};
  for (const name of DEPLOY_OPTION_NAMES) {
    const raw = given[name];
    if (raw !== undefined && raw !== null) parseInto(parsed, name, raw);
  }
  const options: DeployOptions = { ...DEFAULT_DEPLOY_OPTIONS, ...parsed };
  if (options.removalPolicy === 'destroy' && options.stageName === PRODUCTION_STAGE) {
    throw new DeployOptionError(
      'removalPolicy',
      'destroy',
      `retain on the production stage (stageName ${PRODUCTION_STAGE}): destroy is for a non-production stage, e.g. -c stageName=dev`,
    );
  }
  if (options.bakeMinutes === 0 && options.stageName === PRODUCTION_STAGE) {
    throw new DeployOptionError(
      'bakeMinutes',
      0,
      `at least 1 on the production stage (stageName ${PRODUCTION_STAGE}): every production release is watched after the switch; 0 is for a non-production stage`,
    );
  }
  return options;
}
