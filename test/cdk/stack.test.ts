import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ContactsStack, OUTPUTS } from '../../lib/contacts-stack';
import { CONTACTS_KEY, KEYS_BY_FACTORY, KEYS_BY_KEY_ID, KEYS_KEY } from '../../lambda/store/schema';
import { endpoint, issueKey, newFactoryId } from '../support/local-api';

let template: Template;
let assemblyDir: string;

beforeAll(() => {
  const app = new App();
  const stack = new ContactsStack(app, 'TestContacts', { env: { account: '123456789012', region: 'eu-west-1' } });
  template = Template.fromStack(stack);
  assemblyDir = app.synth().directory;
}, 120_000);

/** Resources of a type whose properties match. */
const resources = (type: string, props: object = {}) => template.findResources(type, { Properties: props });

describe('Lambda (issue point 5)', () => {
  test('one API function: Node.js 22, arm64, bundled handler, bounded timeout, table names in env', () => {
    template.resourceCountIs('AWS::Lambda::Function', 1);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: 10,
      MemorySize: 1024,
      Environment: {
        Variables: { CONTACTS_TABLE_NAME: { Ref: Match.anyValue() }, KEYS_TABLE_NAME: { Ref: Match.anyValue() } },
      },
    });
  });

  describe('the bundle', () => {
    let bundlePath: string;
    let code: string;
    beforeAll(() => {
      const asset = readdirSync(assemblyDir).find((name) => name.startsWith('asset.') && existsSync(join(assemblyDir, name, 'index.mjs')));
      if (!asset) throw new Error(`no bundled asset in ${assemblyDir}`);
      bundlePath = join(assemblyDir, asset, 'index.mjs');
      code = readFileSync(bundlePath, 'utf8');
    });

    test('is one minified ESM file under 320 KB (half of a comparable public sample)', () => {
      expect(readdirSync(join(bundlePath, '..'))).toEqual(['index.mjs']);
      expect(statSync(bundlePath).size).toBeLessThan(320_000);
      expect(code.split('\n').length).toBeLessThan(50);
    });

    test('bundles the AWS SDK instead of importing the runtime copy', () => {
      expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
      expect(code).not.toMatch(/require\(["']@aws-sdk\//);
      expect(code).toContain('DynamoDB');
    });

    test('leaves out credential providers Lambda never uses', () => {
      for (const unused of ['sso-oidc', 'AssumeRoleWithWebIdentity', 'credential_process']) expect(code).not.toContain(unused);
    });

    test('runs: the deployed handler file answers a proxy event from DynamoDB Local', async () => {
      const factoryId = newFactoryId('bundle');
      const { key } = await issueKey(factoryId);
      const event = {
        httpMethod: 'POST',
        path: '/api/v1/contacts',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        multiValueHeaders: {},
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        pathParameters: null,
        body: JSON.stringify({ email: 'bundle@example.com' }),
        isBase64Encoded: false,
        requestContext: {},
      };
      const script = `
        const { handler } = await import(${JSON.stringify(bundlePath)});
        const result = await handler(${JSON.stringify(event)}, { awsRequestId: 'b', getRemainingTimeInMillis: () => 10000 });
        process.stdout.write(JSON.stringify(result));`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          AWS_ACCESS_KEY_ID: 'local',
          AWS_SECRET_ACCESS_KEY: 'local',
          AWS_REGION: 'eu-west-1',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          LOG_LEVEL: 'silent',
          DYNAMODB_ENDPOINT: endpoint(),
          CONTACTS_TABLE_NAME: process.env.CONTACTS_TABLE_NAME,
          KEYS_TABLE_NAME: process.env.KEYS_TABLE_NAME,
        },
      });
      expect(run.stderr).toBe('');
      const result = JSON.parse(run.stdout);
      expect(result.statusCode).toBe(201);
      expect(JSON.parse(result.body).contact.factoryId).toBe(factoryId);
    });
  });

  test("the function's role may call exactly UpdateItem/GetItem on contacts and UpdateItem on keys", () => {
    const policies = Object.values(resources('AWS::IAM::Policy'));
    const statements = policies.flatMap((p: any) => p.Properties.PolicyDocument.Statement);
    const dynamo = statements.filter((s: any) => [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')));
    const summary = dynamo.map((s: any) => ({ actions: [s.Action].flat().sort(), resource: JSON.stringify(s.Resource) }));
    expect(summary).toHaveLength(2);
    expect(summary.find((s) => s.resource.includes('TablesContacts'))?.actions).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(summary.find((s) => s.resource.includes('TablesKeys'))?.actions).toEqual(['dynamodb:UpdateItem']);
    expect(JSON.stringify(statements)).not.toMatch(/"dynamodb:\*"|"\*"/);
  });
});

describe('API Gateway (issue point 6)', () => {
  test('a regional REST API', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
  });

  test('every method on every path goes to the Lambda through a proxy integration', () => {
    const methods = Object.values(resources('AWS::ApiGateway::Method')) as any[];
    expect(methods).toHaveLength(2);
    for (const method of methods) {
      expect(method.Properties.HttpMethod).toBe('ANY');
      expect(method.Properties.Integration.Type).toBe('AWS_PROXY');
      expect(method.Properties.AuthorizationType).toBe('NONE');
    }
    template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: '{proxy+}' });
  });

  test('no CORS: no OPTIONS method and no Access-Control-* header anywhere', () => {
    expect(Object.keys(template.findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: 'OPTIONS' } }))).toEqual([]);
    expect(JSON.stringify(template.toJSON())).not.toMatch(/Access-Control/i);
  });

  test.each([
    ['DEFAULT_4XX', undefined],
    ['DEFAULT_5XX', undefined],
    ['THROTTLED', '429'],
    ['REQUEST_TOO_LARGE', '413'],
    ['MISSING_AUTHENTICATION_TOKEN', '404'],
    ['INTEGRATION_TIMEOUT', '504'],
  ])('gateway response %s is reshaped to {"error": …}', (type, status) => {
    const found = Object.values(resources('AWS::ApiGateway::GatewayResponse', { ResponseType: type })) as any[];
    expect(found).toHaveLength(1);
    const props = found[0].Properties;
    expect(props.ResponseTemplates['application/json']).toMatch(/^\{"error": /);
    if (status) expect(props.StatusCode).toBe(status);
  });

  test('THROTTLED answers with Retry-After', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseParameters: { 'gatewayresponse.header.Retry-After': "'1'" },
    });
  });

  test('the stage throttles as account protection, writes access logs and no execution logs', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      MethodSettings: [
        Match.objectLike({ ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000, LoggingLevel: 'OFF', DataTraceEnabled: false }),
      ],
    });
  });

  test('the access log format holds no query string or header', () => {
    const stage = Object.values(resources('AWS::ApiGateway::Stage'))[0] as any;
    expect(stage.Properties.AccessLogSetting.Format).not.toMatch(/querystring|header|authorization/i);
  });
});

describe('tables (issue point 7)', () => {
  test('both on demand, with point-in-time recovery, encryption, retained on delete', () => {
    const tables = template.findResources('AWS::DynamoDB::Table');
    expect(Object.keys(tables)).toHaveLength(2);
    for (const table of Object.values(tables) as any[]) {
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      expect(table.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
      });
    }
  });

  test('the contacts table is keyed by factory and sort key, as the code expects', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: CONTACTS_KEY.partitionKey, KeyType: 'HASH' },
        { AttributeName: CONTACTS_KEY.sortKey, KeyType: 'RANGE' },
      ],
    });
  });

  test('the keys table is keyed by the secret hash, with keys-only indexes by factory and by key id', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: KEYS_KEY.partitionKey, KeyType: 'HASH' }],
      GlobalSecondaryIndexes: Match.arrayWith([
        Match.objectLike({ IndexName: KEYS_BY_FACTORY.indexName, Projection: { ProjectionType: 'KEYS_ONLY' } }),
        Match.objectLike({ IndexName: KEYS_BY_KEY_ID.indexName, Projection: { ProjectionType: 'KEYS_ONLY' } }),
      ]),
    });
  });
});

describe('outputs', () => {
  test('the API URL and the table names the keys command reads', () => {
    const outputs = template.toJSON().Outputs;
    expect(Object.keys(outputs).sort()).toEqual([OUTPUTS.apiUrl, OUTPUTS.contactsTable, OUTPUTS.keysTable].sort());
  });
});
