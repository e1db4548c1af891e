import { RemovalPolicy, type Duration } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, type IDestination } from 'aws-cdk-lib/aws-lambda';
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
 * to the environment credentials Lambda provides, no event-stream codec, and
 * DynamoDB reached through the lean client instead of the SDK's.
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
    // See lambda/infrastructure/aws-sdk/lambda-credentials.ts: environment credentials only, as on Lambda.
    '--alias:@aws-sdk/credential-provider-node': './lambda/infrastructure/aws-sdk/lambda-credentials.ts',
    // See lambda/infrastructure/aws-sdk/no-event-streams.ts: DynamoDB streams no events, so the codec is left out.
    '--alias:@smithy/core/event-streams': './lambda/infrastructure/aws-sdk/no-event-streams.ts',
    // See lambda/infrastructure/store/lean-dynamodb/: the SDK's DynamoDB clients replaced by one signed POST per call.
    '--alias:@aws-sdk/client-dynamodb': './lambda/infrastructure/store/lean-dynamodb/dynamodb-client.ts',
    '--alias:@aws-sdk/lib-dynamodb': './lambda/infrastructure/store/lean-dynamodb/document-client.ts',
  },
};

export interface ServiceFunctionProps {
  description: string;
  /** The handler module, relative to lambda/: `api/contacts-entry.ts`. Its export is `handler`. */
  entry: string;
  timeout: Duration;
  environment: Record<string, string>;
  /** MB; CPU grows with it. */
  memorySize: number;
  logRetention: RetentionDays;
  /** What deleting the stack does to the function's log group. */
  logRemovalPolicy: RemovalPolicy;
  /** How it is bundled; BUNDLING above when absent. */
  bundling?: BundlingOptions;
  /** Where a failed asynchronous invocation is handed (a deployment hook's: lib/hook-failures.ts); none when absent. */
  onFailure?: IDestination;
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
  /** What the function is, the start of its description: `Contacts API`. */
  readonly title: string;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${titleOf(props.description)}`,
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
      bundling: props.bundling ?? BUNDLING,
      environment: props.environment,
      retryAttempts: NO_ASYNC_RETRIES,
      ...(props.onFailure ? { onFailure: props.onFailure } : {}),
      role,
      logGroup,
      // Every version a release replaced is kept (DeletionPolicy RetainExceptOnCreate, UpdateReplacePolicy Retain), to point
      // `live` back at (docs/runbook.md#going-back-to-an-earlier-version); the version of a release that was rolled back is
      // deleted with its rollback, so that Lambda publishes the same code again at the next deploy (docs/deploying.md#every-version-is-kept).
      currentVersionOptions: { removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE },
    });
    this.title = titleOf(props.description);

    NagSuppressions.addResourceSuppressions(this, [
      {
        id: 'AwsSolutions-L1',
        reason:
          'Node.js 22 is a maintained LTS runtime, pinned on purpose together with the bundle target node22 above: moving to a newer runtime is a deliberate change of both, tested on the bundle, never a side effect of a CDK upgrade.',
      },
      {
        id: 'Serverless-LambdaLatestVersion',
        reason:
          'Node.js 22 is pinned on purpose (see AwsSolutions-L1): the bundled-asset tests run on Node.js 22 in CI, and a newer runtime is a deliberate change of runtime, bundle target and that test run together.',
      },
      {
        id: 'Serverless-LambdaTracing',
        reason:
          'No X-Ray: each request\'s log line carries its DynamoDB calls and their time (dynamoCalls, dynamoMs) and a DynamoDBLatency metric per call, which answer what a trace would here without the X-Ray SDK in the bundle or a trace per request to pay for (README, "Where this project writes its own code").',
      },
      {
        id: 'Serverless-LambdaDLQ',
        reason:
          'No function of this service is invoked asynchronously with data to keep: API Gateway and the function URL invoke synchronously and the caller sees the failure, a pre-traffic hook that fails fails its deployment, and a function fed by a stream keeps its failures on its event source mapping. A dead-letter queue would stay empty.',
      },
    ]);
    const asyncConfig = this.node.tryFindChild('EventInvokeConfig');
    if (asyncConfig && !props.onFailure) NagSuppressions.addResourceSuppressions(asyncConfig, [NO_ASYNC_DESTINATION]);
  }
}

/** The first part of a function's description: what it is. */
const titleOf = (description: string) => description.split(':')[0] as string;

/** Why the async-invocation settings (retries 0) have no failure destination. */
export const NO_ASYNC_DESTINATION = {
  id: 'Serverless-LambdaAsyncFailureDestination',
  reason:
    "This configuration exists only to forbid Lambda's retries of an asynchronous invocation (a retry could run a bulk pass twice); no caller of this service invokes asynchronously with data to keep (see Serverless-LambdaDLQ), so a failure destination would never receive anything.",
};
