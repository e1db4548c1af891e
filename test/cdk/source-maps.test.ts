import { Match } from 'aws-cdk-lib/assertions';
import { MAP_RETENTION_DAYS } from '../../lambda/ingest/sourcemaps/limits';
import { resourcesOf, synthStack } from './synth';

const { template } = synthStack();

type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown; Effect: string };

/** The statements of the policies attached to the role of the function whose description starts with `description`. */
function statementsOf(description: string): Statement[] {
  const [fn] = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).filter((resource) =>
    String(resource.Properties.Description).startsWith(description),
  );
  const role = (fn?.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === role))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

const bucketId = Object.keys(resourcesOf(template, 'AWS::S3::Bucket'))[0] as string;
/** The S3 statements as "action on resource" lines, the bucket's ARN written <bucket>. */
const s3Grants = (statements: Statement[]) =>
  statements
    .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')))
    .flatMap((statement) =>
      [statement.Action]
        .flat()
        .map(
          (action) => `${action} on ${JSON.stringify(statement.Resource).replace(new RegExp(`\\{"Fn::GetAtt":\\["${bucketId}","Arn"\\]\\}`, 'g'), '<bucket>')}`,
        ),
    )
    .sort();

test('the source maps bucket is the only bucket: encrypted, every public access blocked, owned by the bucket owner', () => {
  expect(Object.keys(resourcesOf(template, 'AWS::S3::Bucket'))).toHaveLength(1);
  template.hasResourceProperties('AWS::S3::Bucket', {
    BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
  });
});

test('the bucket refuses every request not made over TLS', () => {
  template.hasResourceProperties('AWS::S3::BucketPolicy', {
    PolicyDocument: {
      Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
    },
  });
});

test('pending uploads expire after a day, stored maps after their retention', () => {
  template.hasResourceProperties('AWS::S3::Bucket', {
    LifecycleConfiguration: {
      Rules: [
        Match.objectLike({
          Id: 'pending-uploads',
          Prefix: 'pending/',
          ExpirationInDays: 1,
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          Status: 'Enabled',
        }),
        Match.objectLike({ Id: 'maps', Prefix: 'maps/', ExpirationInDays: MAP_RETENTION_DAYS, Status: 'Enabled' }),
      ],
    },
  });
});

test('the upload function may write and read pending/ and maps/, delete only pending/, and list; nothing else of S3', () => {
  expect(s3Grants(statementsOf('Contacts source maps API'))).toEqual([
    's3:DeleteObject on {"Fn::Join":["",[<bucket>,"/pending/*"]]}',
    's3:GetObject on {"Fn::Join":["",[<bucket>,"/maps/*"]]}',
    's3:GetObject on {"Fn::Join":["",[<bucket>,"/pending/*"]]}',
    's3:ListBucket on <bucket>',
    's3:PutObject on {"Fn::Join":["",[<bucket>,"/maps/*"]]}',
    's3:PutObject on {"Fn::Join":["",[<bucket>,"/pending/*"]]}',
  ]);
});

test.each(['Contacts ingest API', 'Contacts control room'])(
  'the %s function may only read maps/ (and list, so a missing map is a 404), and is told the bucket in SOURCE_MAPS_BUCKET',
  (description) => {
    expect(s3Grants(statementsOf(description))).toEqual(['s3:GetObject on {"Fn::Join":["",[<bucket>,"/maps/*"]]}', 's3:ListBucket on <bucket>']);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp(`^${description}`),
      Environment: { Variables: Match.objectLike({ SOURCE_MAPS_BUCKET: { Ref: bucketId } }) },
    });
  },
);

test('/sourcemaps/v1/{proxy+} goes to the source maps function, through its live alias', () => {
  template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: 'sourcemaps' });
  const [fnId] =
    Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).find(([, resource]) =>
      String(resource.Properties.Description).startsWith('Contacts source maps API'),
    ) ?? [];
  const aliases = Object.entries(resourcesOf(template, 'AWS::Lambda::Alias')).filter(
    ([, alias]) => (alias.Properties.FunctionName as { Ref: string }).Ref === fnId,
  );
  expect(aliases).toHaveLength(1);
  const aliasId = aliases[0]?.[0] as string;
  const methods = Object.values(resourcesOf(template, 'AWS::ApiGateway::Method')).filter((method) =>
    JSON.stringify(method.Properties.Integration ?? {}).includes(aliasId),
  );
  expect(methods).toHaveLength(1);
});
