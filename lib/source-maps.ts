import { CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { LambdaIntegration, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { API_PREFIXES } from '../lambda/infrastructure/http/prefixes';
import { SOURCEMAPS_SERVICE_NAME } from '../lambda/infrastructure/observability/names';
import { MAP_RETENTION_DAYS } from '../lambda/ingest/sourcemaps/limits';
import { MAPS_PREFIX, PENDING_PREFIX } from '../lambda/infrastructure/store/source-maps/object-keys';
import { grantTableCalls } from './grants';
import type { GradualDeployment } from './gradual-deployment';
import { OUTPUTS } from './outputs';
import { sourceMapsProbes } from './pre-traffic-probes';
import { releasedFunction, type ReleaseSettings } from './released-function';
import type { ServiceFunction } from './service-function';

/** The variable that names the bucket to every function that reads or writes maps. */
export const SOURCE_MAPS_BUCKET_ENV = 'SOURCE_MAPS_BUCKET';

export interface SourceMapsProps {
  /** The REST API and stage the contacts API runs on: the upload API is one more prefix of the host. */
  api: RestApi;
  /** Where /sourcemaps and /sourcemaps/v1 themselves keep going, as every path no function owns. */
  contactsIntegration: LambdaIntegration;
  keysTable: Table;
  /** The bucket's: a stack destroyed with its data may take its maps along; otherwise the bucket is kept. */
  removalPolicy: RemovalPolicy;
  release: ReleaseSettings;
}

/**
 * Source maps (docs/source-maps.md): a private bucket, and the upload API's
 * own function behind `/sourcemaps/v1/{proxy+}` on the service's REST API.
 * Maps never pass through the function: it answers presigned PUTs to
 * `pending/`, then checks what arrived and stores it under `maps/`.
 *
 * Least privilege: the upload function may put, read and delete under
 * `pending/`, put and read under `maps/`, and list the bucket (without
 * s3:ListBucket S3 answers a missing key with 403, not 404, and a map
 * never uploaded would look like a denied call); the resolver (grantResolver)
 * may read `maps/` and list. Nothing may write outside those prefixes.
 */
export class SourceMaps extends Construct {
  readonly bucket: Bucket;
  readonly handler: ServiceFunction;
  readonly deployment: GradualDeployment;

  constructor(scope: Construct, id: string, props: SourceMapsProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      versioned: false,
      // Maps are rebuilt from CI; a stack destroyed with its data may take them along (no auto-delete
      // custom resource: deleting a bucket that still holds maps fails, and says so).
      removalPolicy: props.removalPolicy === RemovalPolicy.DESTROY ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
      lifecycleRules: [
        { id: 'pending-uploads', prefix: PENDING_PREFIX, expiration: Duration.days(1), abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'maps', prefix: MAPS_PREFIX, expiration: Duration.days(MAP_RETENTION_DAYS) },
      ],
    });

    ({ handler: this.handler, deployment: this.deployment } = releasedFunction(this, 'Handler', {
      settings: props.release,
      description: 'Contacts source maps API: CI uploads of source maps (API Gateway proxy)',
      entry: 'ingest/sourcemaps/api/sourcemaps-entry.ts',
      // A completion reads, checks and stores a map of up to 50 MiB; API Gateway gives up at 29 s.
      timeout: Duration.seconds(28),
      // JSON.parse of a 50 MiB map and its bytes held twice: room, and the CPU that comes with it.
      memorySize: 1024,
      environment: {
        KEYS_TABLE_NAME: props.keysTable.tableName,
        [SOURCE_MAPS_BUCKET_ENV]: this.bucket.bucketName,
      },
      service: SOURCEMAPS_SERVICE_NAME,
      deploymentId: 'Deployment',
      // A completion of a large map takes seconds: the alarm is for a version far slower than that.
      release: { name: 'sourcemaps', probes: sourceMapsProbes, p99DurationMs: 20_000, ownMetrics: 'requests' },
    }));
    grantTableCalls(props.keysTable, this.handler, 'dynamodb:UpdateItem');
    this.grantObjects(this.handler, PENDING_PREFIX, 's3:PutObject', 's3:GetObject', 's3:DeleteObject');
    this.grantObjects(this.handler, MAPS_PREFIX, 's3:PutObject', 's3:GetObject');
    this.grantList(this.handler);
    this.suppressPrefixWildcards(this.handler, [PENDING_PREFIX, MAPS_PREFIX]);

    // /sourcemaps/v1/{proxy+} → this function; /sourcemaps and /sourcemaps/v1 stay the contacts function's (404), as npm start dispatches.
    const [first, second] = API_PREFIXES.sourcemaps.split('/').filter(Boolean) as [string, string];
    const root = props.api.root.addResource(first);
    const version = root.addResource(second);
    const contactsMethods = [root.addMethod('ANY', props.contactsIntegration), version.addMethod('ANY', props.contactsIntegration)];
    const proxy = version.addProxy({
      defaultIntegration: new LambdaIntegration(this.deployment.alias, { proxy: true, allowTestInvoke: false }),
      anyMethod: true,
    });

    new CfnOutput(Stack.of(this), OUTPUTS.sourceMapsBucket, {
      value: this.bucket.bucketName,
      description: 'The private bucket of uploaded source maps (maps/<factory>/…); CI uploads through <ApiUrl>sourcemaps/v1/',
    });

    const keyAuth = (who: string) => [
      {
        id: 'AwsSolutions-APIG4',
        reason: `${who} authenticates every request itself: a secret key looked up by its sha256 in the keys table, in the same conditional write that counts its rate limit (docs/keys.md, docs/source-maps.md#the-upload-api).`,
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Callers are CI jobs and servers holding secret keys issued with the keys command, not users of a Cognito user pool; the function authenticates the keys (see AwsSolutions-APIG4).',
      },
    ];
    NagSuppressions.addResourceSuppressions(contactsMethods, keyAuth('The contacts function (these two paths go to it like every path no function owns)'));
    NagSuppressions.addResourceSuppressions(proxy.anyMethod ? [proxy.anyMethod] : [], keyAuth('The source maps function'));
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'Only three roles of this stack reach the objects (public access blocked, TLS only): the upload function, whose every request is one log line naming the factory and the key id, and the ingest and control-room functions, which only read. Server access logs would need a second bucket holding a line per presigned PUT and per read, of no use beyond those logs; CloudTrail S3 data events can be enabled on the account where an audit trail of object access is required.',
      },
    ]);
  }

  /** Lets a resolver (the ingest function, the control room) read maps: GetObject under maps/ and ListBucket, and names the bucket in its environment. */
  grantResolver(fn: ServiceFunction): void {
    this.grantObjects(fn, MAPS_PREFIX, 's3:GetObject');
    this.grantList(fn);
    this.suppressPrefixWildcards(fn, [MAPS_PREFIX]);
    fn.addEnvironment(SOURCE_MAPS_BUCKET_ENV, this.bucket.bucketName);
  }

  /** Object permissions name a prefix of keys, which IAM writes with a wildcard: say so to cdk-nag, for exactly those. */
  private suppressPrefixWildcards(fn: ServiceFunction, prefixes: string[]): void {
    const policy = fn.role?.node.tryFindChild('DefaultPolicy');
    if (!policy) return;
    const bucketId = Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnBucket);
    NagSuppressions.addResourceSuppressions(policy, [
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'S3 object permissions are granted on key prefixes of the source maps bucket (docs/source-maps.md#what-is-stored): every object of a prefix is the point, and the prefixes split what each function may do (the upload function writes pending/ and maps/, the ingest and control-room functions only read maps/).',
        appliesTo: prefixes.map((prefix) => `Resource::<${bucketId}.Arn>/${prefix}*`),
      },
    ]);
  }

  private grantObjects(grantee: IGrantable, prefix: string, ...actions: `s3:${string}Object`[]): void {
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [this.bucket.arnForObjects(`${prefix}*`)] }));
  }

  private grantList(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn] }));
  }
}
