/**
 * Where a stack's deploy options come from (docs/deploying.md#options):
 * the stack's own section of cdk.json (`context.stacks.<stackName>`), over
 * options every stack of the checkout shares (flat `context` keys), over the
 * defaults, and `-c name=value` for a single deploy. The options whose loss
 * a later deploy would not show (the control room's role, the alarm and
 * alert subscriptions, the stage, the links, the platform's name) persist:
 * they are read from the configuration only, never from a command line
 * alone, and the production stage must state the control room's role and
 * the alarm address (or "none") there. CDK-free and pure: bin/contacts.ts
 * reads cdk.json and the app's context and hands them here.
 */
import { DEPLOY_OPTION_NAMES, type DeployOptions, PRODUCTION_STAGE } from './deploy-options';

/** Options a deploy must not change by a command line alone: leaving them out of a later deploy would silently undo them. */
export const PERSISTENT_OPTIONS = ['stageName', 'controlRoomRoleArn', 'alarmEmail', 'alertEmails', 'alertLinkBase', 'platformName'] as const;

/** Options the production stage's configuration must state, a value or NONE: without them the control room and the alarms reach no one. */
export const REQUIRED_ON_PRODUCTION = ['controlRoomRoleArn', 'alarmEmail'] as const;

/** What a configuration says for "deliberately none" (no control-room role, no alarm mail). */
export const NONE = 'none';

/** The key of cdk.json's context that holds one section per stack. */
export const STACKS_KEY = 'stacks';

export class StackConfigurationError extends Error {
  override readonly name = 'StackConfigurationError';
}

type Raw = Record<string, unknown>;
const isRecord = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface StackConfigurationInput {
  stackName: string;
  /** cdk.json's `context`, as the file holds it. */
  configured: Raw;
  /** Each option as the app's context has it: cdk.json's flat value, or a -c value given for this deploy. */
  given: Raw;
}

/**
 * The raw options of one deploy of `stackName` (resolveDeployOptions checks their values): the stack's
 * section over the shared flat keys, and -c values over both except for the persistent options.
 * Throws a StackConfigurationError saying what to write where.
 */
export function stackOptions({ stackName, configured, given }: StackConfigurationInput): Partial<Record<keyof DeployOptions, unknown>> {
  const stacks = configured[STACKS_KEY] ?? {};
  if (!isRecord(stacks)) throw new StackConfigurationError(`cdk.json: context.${STACKS_KEY} must be an object with one section per stack name`);
  const section = stacks[stackName] ?? {};
  if (!isRecord(section)) throw new StackConfigurationError(`cdk.json: context.${STACKS_KEY}.${stackName} must be an object of deploy options`);
  const unknown = Object.keys(section).filter((name) => !(DEPLOY_OPTION_NAMES as string[]).includes(name));
  if (unknown.length > 0) {
    throw new StackConfigurationError(
      `cdk.json: context.${STACKS_KEY}.${stackName} names ${unknown.map((name) => `"${name}"`).join(', ')}, not a deploy option (the options: ${DEPLOY_OPTION_NAMES.join(', ')})`,
    );
  }

  const options: Partial<Record<keyof DeployOptions, unknown>> = {};
  for (const name of DEPLOY_OPTION_NAMES) {
    const fromFile = name in section ? section[name] : configured[name];
    // The app's context holds cdk.json's flat value unless -c gave another one for this deploy.
    const fromCommandLine = given[name] !== undefined && !same(given[name], configured[name]) ? given[name] : undefined;
    if (fromCommandLine !== undefined && (PERSISTENT_OPTIONS as readonly string[]).includes(name) && !same(fromCommandLine, fromFile)) {
      throw new StackConfigurationError(
        `-c ${name}=${String(fromCommandLine)}: ${name} must persist from deploy to deploy: write it in cdk.json under context.${STACKS_KEY}.${stackName}.${name} (a command line alone would be undone by the next deploy without it)`,
      );
    }
    const value = fromCommandLine ?? fromFile;
    if (value !== undefined && value !== null) options[name] = value;
  }

  const stage = String(options.stageName ?? PRODUCTION_STAGE);
  if (stage === PRODUCTION_STAGE) {
    const missing = REQUIRED_ON_PRODUCTION.filter((name) => section[name] === undefined && configured[name] === undefined);
    if (missing.length > 0) {
      throw new StackConfigurationError(
        `stack ${stackName} deploys the production stage (stageName ${PRODUCTION_STAGE}): cdk.json must state ${missing.join(' and ')} under context.${STACKS_KEY}.${stackName} (a value, or "${NONE}" for no one), so that no deploy goes without them`,
      );
    }
  }
  for (const name of REQUIRED_ON_PRODUCTION) if (options[name] === NONE) delete options[name];
  return options;
}
