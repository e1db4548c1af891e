import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { join } from 'node:path';

export const PROJECT_ROOT = join(__dirname, '..');

/**
 * esbuild on this machine (no Docker): one minified ESM file per function,
 * the AWS SDK bundled in (pinned, and tree-shaken via its ESM builds), no
 * source maps to load at cold start, the SDK's credential chain reduced
 * to the environment credentials Lambda provides, and no event-stream codec.
 */
export const BUNDLING: BundlingOptions = {
  minify: true,
  sourceMap: false,
  target: 'node22',
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  bundleAwsSDK: true,
  externalModules: [],
  forceDockerBundling: false,
  // Some CommonJS dependencies call require() for Node built-ins.
  banner: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);",
  esbuildArgs: {
    // See lambda/sdk/lambda-credentials.ts: environment credentials only, as on Lambda.
    '--alias:@aws-sdk/credential-provider-node': './lambda/sdk/lambda-credentials.ts',
    // See lambda/sdk/no-event-streams.ts: DynamoDB streams no events, so the codec is left out.
    '--alias:@smithy/core/event-streams': './lambda/sdk/no-event-streams.ts',
  },
};

export interface ServiceFunctionProps {
  description: string;
  /** The handler module, relative to lambda/: `api/handler.ts`. Its export is `handler`. */
  entry: string;
  timeout: Duration;
  environment: Record<string, string>;
  /** MB; CPU grows with it. */
  memorySize: number;
  logRetention: RetentionDays;
  /** What deleting the stack does to the function's log group. */
  logRemovalPolicy: RemovalPolicy;
}

/** Async invocations are never retried by Lambda: a retry could run a pass twice. Callers retry, with a passId. */
const NO_ASYNC_RETRIES = 0;

/**
 * A Lambda function of this service: Node.js 22 on arm64, bundled as above,
 * writing to its own log group. Its role starts empty (no AWS managed
 * policy): it may write to that log group only, and callers grant the table
 * calls it makes.
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.description.split(':')[0]}`,
    });
    // Instead of AWSLambdaBasicExecutionRole (logs on every log group of the account).
    logGroup.grantWrite(role);

    super(scope, id, {
      description: props.description,
      entry: join(PROJECT_ROOT, 'lambda', props.entry),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      bundling: BUNDLING,
      environment: props.environment,
      retryAttempts: NO_ASYNC_RETRIES,
      role,
      logGroup,
    });

    NagSuppressions.addResourceSuppressions(this, [
      {
        id: 'AwsSolutions-L1',
        reason:
          'Node.js 22 is a maintained LTS runtime, pinned on purpose together with the bundle target node22 above: moving to a newer runtime is a deliberate change of both, tested on the bundle, never a side effect of a CDK upgrade.',
      },
    ]);
  }
}
