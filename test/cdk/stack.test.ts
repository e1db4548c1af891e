import { Match, Template } from 'aws-cdk-lib/assertions';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ContactsStack } from '../../lib/contacts-stack';
import { OUTPUTS } from '../../lib/outputs';
import { CONTROL_ROOM_SERVICE_NAME, INGEST_SERVICE_NAME, METRIC, SERVICE_NAME, stackMetricsNamespace } from '../../lambda/infrastructure/observability/names';
import {
  CONTACTS_BY_COMPANY,
  CONTACTS_KEY,
  KEYS_BY_FACTORY,
  KEYS_BY_KEY_ID,
  KEYS_KEY,
  REPORTS_BY_FEED,
  REPORTS_BY_ISSUE,
  REPORTS_BY_PERSON,
  REPORTS_KEY,
} from '../../lambda/infrastructure/store/schema';
import { DEFAULT_DYNAMO_CONFIG, dynamoConfigFromEnv, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { endpoint, issueKey, issuePublishableKey, newFactoryId, tables, testDoc } from '../support/local-api';
import { marshall } from '@aws-sdk/util-dynamodb';
import { issueIdOf } from '../../lambda/ingest/grouping/fingerprint';
import { withGrouping } from '../../lambda/ingest/receive-events';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { eventItemOf } from '../../lambda/infrastructure/store/reports/event-items';
import { BUNDLE_LIMIT_BYTES, INGEST_BUNDLE_LIMIT_BYTES } from '../../tools/bench/report';
import { testApp } from './synth';
import { findFunctionAsset } from '../../local/harness/bundle/api-asset';
import { keptAssembly } from '../../local/harness/bundle/assembly-cache';

let template: Template;
let assemblyDir: string;

const CONTROL_ROOM = 'arn:aws:iam::123456789012:role/ControlRoom';

beforeAll(() => {
  // The template with aws-cdk-lib's validation on; the functions' bundles from the project's own `cdk synth` (the
  // files `cdk deploy` uploads), kept once per state of the sources (local/harness/bundle/assembly-cache.ts): bundling them
  // again here would only repeat that synth's esbuild runs.
  const app = testApp({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ContactsStack(app, 'TestContacts', {
    env: { account: '123456789012', region: 'eu-west-1' },
    platformName: 'Acme Platform',
    controlRoomRoleArn: CONTROL_ROOM,
  });
  template = Template.fromStack(stack);
  assemblyDir = keptAssembly().dir;
}, 120_000);

/** Resources of a type whose properties match. */
const resources = (type: string, props: object = {}) => template.findResources(type, { Properties: props });

/** Logical id of the Lambda function whose description starts with `prefix`. */
function functionId(prefix: string): string {
  const found = Object.entries(resources('AWS::Lambda::Function')).filter(([, f]: [string, any]) => String(f.Properties.Description).startsWith(prefix));
  expect(found).toHaveLength(1);
  return found[0]![0];
}

/** DynamoDB permissions of a function's role: table logical id → sorted actions. */
function dynamoGrants(fnId: string): Record<string, string[]> {
  const fn = (resources('AWS::Lambda::Function') as any)[fnId];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  const policies = Object.values(resources('AWS::IAM::Policy')).filter((p: any) => p.Properties.Roles.some((r: any) => r.Ref === roleId)) as any[];
  const grants: Record<string, string[]> = {};
  for (const statement of policies.flatMap((p) => p.Properties.PolicyDocument.Statement)) {
    const actions = [statement.Action].flat().filter((a: string) => a.startsWith('dynamodb:'));
    if (actions.length === 0) continue;
    for (const resource of [statement.Resource].flat()) {
      const text = JSON.stringify(resource);
      const table = text.match(/"(Tables\w+?)[0-9A-F]{8}"/)?.[1];
      const index = text.match(/\/index\/(\w+)"/)?.[1];
      const ref = table === undefined ? text : index === undefined ? table : `${table}/index/${index}`;
      grants[ref] = [...new Set([...(grants[ref] ?? []), ...actions])].sort();
    }
  }
  return grants;
}

/** A function's DeleteItem statements on the reports table, with the keys each is limited to. */
function deletesOnReports(description: string): unknown[] {
  const fn = (resources('AWS::Lambda::Function') as any)[functionId(description)];
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return (Object.values(resources('AWS::IAM::Policy')) as any[])
    .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement)
    .filter((st: any) => /"TablesReports[0-9A-F]{8}"/.test(JSON.stringify(st.Resource)) && [st.Action].flat().includes('dynamodb:DeleteItem'))
    .map((st: any) => [st.Action, st.Condition]);
}

describe('Lambda (issue point 5)', () => {
  test('the API function: Node.js 22, arm64, bundled handler, bounded timeout, table names in env', () => {
    // Seven functions of the service (the API, ingest, source maps, control room, tally, alert notifier and deliverer), a pre-traffic
    // hook for each (test/cdk/deployments.test.ts), and the canary receiver the deliverer's hook delivers to (lib/canary-receiver.ts).
    // And a bake hook for each, and the hooks' failure reporter (lib/hook-failures.ts).
    template.resourceCountIs('AWS::Lambda::Function', 23);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Contacts API'),
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

  test('keeps the fail-fast DynamoDB timeouts on AWS: the environment it gets names no DynamoDB endpoint', () => {
    const fn = (resources('AWS::Lambda::Function') as any)[functionId('Contacts API')];
    const variables = fn.Properties.Environment.Variables as Record<string, string>;
    expect(variables).not.toHaveProperty('DYNAMODB_ENDPOINT');
    expect(dynamoConfigFromEnv(variables)).toMatchObject({ ...DEFAULT_DYNAMO_CONFIG, endpoint: undefined });
    expect(dynamoConfigFromEnv({ ...variables, DYNAMODB_ENDPOINT: 'http://localhost:8000' })).toMatchObject(LOCAL_DYNAMO_CONFIG);
  });

  test('the ingest function: Node.js 22, arm64, bundled handler, bounded timeout, its tables and retention in env', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Contacts ingest API'),
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: 10,
      Environment: {
        Variables: Match.objectLike({ KEYS_TABLE_NAME: { Ref: Match.anyValue() }, REPORTS_TABLE_NAME: { Ref: Match.anyValue() }, REPORT_RETENTION_DAYS: '90' }),
      },
    });
  });

  test("the ingest function's role may call exactly UpdateItem on keys and GetItem (a feedback's event)/PutItem/UpdateItem on reports: nothing on contacts", () => {
    expect(dynamoGrants(functionId('Contacts ingest API'))).toEqual({
      TablesKeys: ['dynamodb:UpdateItem'],
      TablesReports: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    });
  });

  test("the tally function's role may call exactly PutItem/UpdateItem/GetItem/BatchGetItem on reports (pages, counts, a release's users, the people check), DeleteItem on its pairs only, GetItem on contacts (a new person's company), read its stream, and send its failures to its queue", () => {
    expect(dynamoGrants(functionId('Contacts tally'))).toEqual({
      // ListStreams takes no resource: the event source mapping needs it on "*" to find the stream.
      '"*"': ['dynamodb:ListStreams'],
      TablesContacts: ['dynamodb:GetItem'],
      TablesReports: [
        'dynamodb:BatchGetItem',
        'dynamodb:DeleteItem',
        'dynamodb:DescribeStream',
        'dynamodb:GetItem',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
      ],
    });
    const fn = (resources('AWS::Lambda::Function') as any)[functionId('Contacts tally')];
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const actions = (Object.values(resources('AWS::IAM::Policy')) as any[])
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .flatMap((st: any) => [st.Action].flat())
      .sort();
    expect(actions).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:DeleteItem',
      'dynamodb:DeleteItem',
      'dynamodb:DescribeStream',
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:ListStreams',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    expect(deletesOnReports('Contacts tally')).toEqual([
      ['dynamodb:DeleteItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['affected#*'] } }],
      ['dynamodb:DeleteItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['affco#*'] } }],
    ]);
  });

  /** A request each asset answers from DynamoDB Local, with what it must answer and the service its metrics name. */
  const BUNDLE_CASES = [
    {
      description: 'Contacts API',
      service: SERVICE_NAME,
      limit: BUNDLE_LIMIT_BYTES,
      request: async () => {
        const factoryId = newFactoryId('bundle');
        const { key } = await issueKey(factoryId);
        return {
          factoryId,
          event: {
            httpMethod: 'POST',
            path: '/api/v1/contacts',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ email: 'bundle@example.com' }),
          },
        };
      },
      answers: (result: { statusCode: number; body: string }, factoryId: string) => {
        expect(result.statusCode).toBe(201);
        expect(JSON.parse(result.body).contact.factoryId).toBe(factoryId);
      },
    },
    {
      description: 'Contacts ingest API',
      service: INGEST_SERVICE_NAME,
      limit: INGEST_BUNDLE_LIMIT_BYTES,
      request: async () => {
        const factoryId = newFactoryId('bundle');
        const { key } = await issuePublishableKey(factoryId, ['https://shop.example']);
        const body = { events: [{ eventId: randomUUID(), message: 'bundled', tags: { plan: 'pro' } }] };
        return {
          factoryId,
          event: {
            httpMethod: 'POST',
            path: '/ingest/v1/events',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Origin: 'https://shop.example' },
            body: JSON.stringify(body),
          },
        };
      },
      answers: (result: { statusCode: number; body: string; headers?: Record<string, string> }) => {
        expect(result.statusCode).toBe(202);
        expect(JSON.parse(result.body)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
        expect(result.headers?.['Access-Control-Allow-Origin']).toBe('https://shop.example');
      },
    },
  ] as const;

  /** The bundle of the one function whose description starts so, found as deployment finds it (its Code.S3Key). */
  const bundleOf = (description: string): string => {
    functionId(description);
    return findFunctionAsset(assemblyDir, description).file;
  };

  test.each([
    ['a pre-traffic hook', 'Pre-traffic check of the Contacts API', /^REFUSED expected a CodeDeploy lifecycle hook event/m],
    ['a bake', 'Bake of the Contacts API', /^REFUSED expected a CodeDeploy lifecycle hook event/m],
    // The reporter logs a record that names no hook event and returns: it never throws on what Lambda hands it.
    ["the hooks' failure reporter", 'Deployment hook failures', /^ANSWERED \{"reported":false\}/m],
  ])("%s: its bundle loads on its own (its SDK clients' imports resolve) and refuses an event that is not CodeDeploy's", (_, description, expected) => {
    const hook = bundleOf(description);
    const script = `
      const { handler } = await import(${JSON.stringify(hook)});
      try { process.stdout.write('ANSWERED ' + JSON.stringify(await handler({}, { getRemainingTimeInMillis: () => 30000 })) + '\\n'); }
      catch (error) { process.stdout.write('REFUSED ' + error.message + '\\n'); }`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: join(hook, '..'),
      env: { PATH: process.env.PATH, AWS_REGION: 'eu-west-1', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'SILENT' },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(expected);
  });

  // Each asset carries only its own API (bench/asset-sizes.md): zod's classes name themselves `$Zod…` in the bundle,
  // a scrubbing mark is `[Filtered:<rule>]` (lambda/ingest/scrub/rule.ts).
  test('the ingest asset carries no zod (its bodies are read by hand), and the contacts asset does', () => {
    expect(readFileSync(bundleOf('Contacts ingest API'), 'utf8')).not.toContain('$ZodType');
    expect(readFileSync(bundleOf('Contacts API'), 'utf8')).toContain('$ZodType');
  });

  test('the contacts asset carries no scrubbing rules, and the ingest asset does', () => {
    expect(readFileSync(bundleOf('Contacts API'), 'utf8')).not.toContain('[Filtered:');
    expect(readFileSync(bundleOf('Contacts ingest API'), 'utf8')).toContain('[Filtered:');
  });

  describe.each(BUNDLE_CASES)('the bundle of $description', ({ description, service, limit, request, answers }) => {
    let bundlePath: string;
    let code: string;
    beforeAll(() => {
      bundlePath = bundleOf(description);
      code = readFileSync(bundlePath, 'utf8');
    });

    test(`is one minified ESM file under ${limit.toLocaleString('en')} bytes (bench/asset-sizes.md)`, () => {
      expect(readdirSync(join(bundlePath, '..'))).toEqual(['index.mjs']);
      expect(statSync(bundlePath).size).toBeLessThan(limit);
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

    test("reaches DynamoDB through the lean client (lambda/infrastructure/store/lean-dynamodb), without the SDK's client and its event-stream codec", () => {
      expect(code).toContain('DynamoDB_20120810.');
      // The SDK client carries its package's manifest (name and version): the lean one has none.
      expect(code).not.toContain('@aws-sdk/client-dynamodb');
      expect(code).not.toContain(':event-type');
    });

    test("runs with the environment the stack gives it: answers a proxy event from DynamoDB Local, metrics in the stack's own namespace, which its alarms read", async () => {
      const { factoryId, event } = await request();
      const proxyEvent = {
        multiValueHeaders: {},
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        pathParameters: null,
        isBase64Encoded: false,
        requestContext: { identity: { sourceIp: '203.0.113.9' } },
        ...event,
      };
      const script = `
        const { handler } = await import(${JSON.stringify(bundlePath)});
        const result = await handler(${JSON.stringify(proxyEvent)}, { awsRequestId: 'b', getRemainingTimeInMillis: () => 10000 });
        process.stdout.write('\\nRESULT ' + JSON.stringify(result) + '\\n');`;
      // The variables the template sets as plain text (table names are references: the local ones stand in).
      const fn = (resources('AWS::Lambda::Function') as any)[functionId(description)];
      const stackEnv = Object.fromEntries(
        Object.entries(fn.Properties.Environment.Variables as Record<string, unknown>).filter(([, v]) => typeof v === 'string'),
      ) as Record<string, string>;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          AWS_ACCESS_KEY_ID: 'local',
          AWS_SECRET_ACCESS_KEY: 'local',
          AWS_REGION: 'eu-west-1',
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          ...stackEnv,
          LOG_LEVEL: 'SILENT',
          DYNAMODB_ENDPOINT: endpoint(),
          CONTACTS_TABLE_NAME: process.env.CONTACTS_TABLE_NAME,
          KEYS_TABLE_NAME: process.env.KEYS_TABLE_NAME,
          REPORTS_TABLE_NAME: process.env.REPORTS_TABLE_NAME,
        },
      });
      expect(run.stderr).toBe('');
      const lines = run.stdout.split('\n').filter(Boolean);
      const result = JSON.parse(lines.find((line) => line.startsWith('RESULT '))!.slice('RESULT '.length));
      answers(result, factoryId);
      // Embedded metric format lines: what CloudWatch turns into the metrics the alarms read.
      const emf = lines.filter((line) => line.includes('"_aws"')).map((line) => JSON.parse(line));
      const totals = emf.find((m) => m._aws.CloudWatchMetrics[0].Metrics.some((d: { Name: string }) => d.Name === METRIC.requestsTotal));
      expect(totals).toMatchObject({ service, [METRIC.requestsTotal]: 1 });
      // The request's call log (its async context) counted its DynamoDB calls in the bundle too, each with its latency.
      expect(totals[METRIC.dynamoCalls]).toBeGreaterThanOrEqual(1);
      expect(totals[METRIC.dynamoLatency]).toHaveLength(totals[METRIC.dynamoCalls]);
      expect(totals._aws.CloudWatchMetrics[0].Namespace).toBe(stackMetricsNamespace('TestContacts'));
    });
  });

  test("the bundle of the tally counts a stream batch from DynamoDB Local into its issue, with the environment the stack gives it, and answers a tumbling window's state", async () => {
    const factoryId = newFactoryId('bundle');
    const events = Array.from({ length: 3 }, (_, i) =>
      withGrouping({
        factoryId,
        keyId: 'key_bundle',
        origin: 'https://shop.example',
        receivedAt: new Date(Date.now() + i).toISOString(),
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
        writeToken: `w${i}`,
        eventId: randomUUID(),
        type: 'error',
        message: 'bundled',
        fingerprint: ['bundle'],
      }),
    );
    const records = events.map((event, i) => ({
      eventID: `r${i}`,
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        Keys: { pk: { S: `event#${factoryId}#${event.eventId}` } },
        // As Lambda hands the image over (JSON): binary values in base64.
        NewImage: JSON.parse(
          JSON.stringify(marshall(eventItemOf(event), { removeUndefinedValues: true }), function (this: Record<string, unknown>, key, value) {
            const own = this[key];
            return own instanceof Uint8Array ? Buffer.from(own).toString('base64') : value;
          }),
        ),
        SequenceNumber: String(100 + i),
      },
    }));
    const streamEvent = {
      Records: records,
      shardId: 'shardId-00000001-bundle',
      state: {},
      window: { start: new Date().toISOString(), end: new Date().toISOString() },
    };
    const bundlePath = bundleOf('Contacts tally');
    const script = `
      const { handler } = await import(${JSON.stringify(bundlePath)});
      const result = await handler(${JSON.stringify(streamEvent)}, { awsRequestId: 't', getRemainingTimeInMillis: () => 60000 });
      process.stdout.write('\\nRESULT ' + JSON.stringify(result) + '\\n');`;
    const fn = (resources('AWS::Lambda::Function') as any)[functionId('Contacts tally')];
    const stackEnv = Object.fromEntries(
      Object.entries(fn.Properties.Environment.Variables as Record<string, unknown>).filter(([, v]) => typeof v === 'string'),
    ) as Record<string, string>;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_REGION: 'eu-west-1',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        ...stackEnv,
        LOG_LEVEL: 'SILENT',
        DYNAMODB_ENDPOINT: endpoint(),
        REPORTS_TABLE_NAME: process.env.REPORTS_TABLE_NAME,
      },
    });
    expect(run.stderr).toBe('');
    const result = JSON.parse(
      run.stdout
        .split('\n')
        .find((line) => line.startsWith('RESULT '))!
        .slice('RESULT '.length),
    );
    expect(result).toEqual({ state: {}, batchItemFailures: [] });
    const issue = await new DynamoIssueStore(testDoc(), tables.reports).getIssue(factoryId, issueIdOf(factoryId, ['custom', 'bundle']), Date.now());
    expect(issue).toMatchObject({ count: 3, status: 'open' });
  });

  test("the API function's role may call exactly UpdateItem/GetItem on contacts and UpdateItem on keys", () => {
    expect(dynamoGrants(functionId('Contacts API'))).toEqual({
      TablesContacts: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
      TablesKeys: ['dynamodb:UpdateItem'],
    });
  });

  test('no policy grants a wildcard action', () => {
    const statements = Object.values(resources('AWS::IAM::Policy')).flatMap((p: any) => p.Properties.PolicyDocument.Statement);
    expect(JSON.stringify(statements)).not.toMatch(/"dynamodb:\*"|"Action":"\*"/);
  });

  test("the only grants on indexes are Queries: the control room's on byCompany, the keys' byFactory and byKeyId, and the reports' byFeed, byIssue and byPerson; the notifier's on byFeed (an issue's people)", () => {
    const statements = Object.values(resources('AWS::IAM::Policy')).flatMap((p: any) => p.Properties.PolicyDocument.Statement);
    const onIndexes = statements.filter((statement: any) => JSON.stringify(statement.Resource).includes('/index'));
    expect(onIndexes.map((statement: any) => statement.Action)).toEqual([
      'dynamodb:Query',
      'dynamodb:Query',
      'dynamodb:Query',
      'dynamodb:Query',
      'dynamodb:Query',
      'dynamodb:Query',
      'dynamodb:Query',
    ]);
    expect(onIndexes.map((statement: any) => /\/index\/(\w+)"/.exec(JSON.stringify(statement.Resource))?.[1]).sort()).toEqual([
      'byCompany',
      'byFactory',
      'byFeed',
      'byFeed',
      'byIssue',
      'byKeyId',
      'byPerson',
    ]);
  });

  test.each(['Contacts API', 'Contacts ingest API', 'Contacts control room', 'Contacts tally'])(
    '%s: its role has no AWS managed policy and may write logs to its own log group only',
    (prefix) => {
      const fn = (resources('AWS::Lambda::Function') as any)[functionId(prefix)];
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      expect((resources('AWS::IAM::Role') as any)[roleId].Properties.ManagedPolicyArns).toBeUndefined();
      const statements = (Object.values(resources('AWS::IAM::Policy')) as any[])
        .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
        .flatMap((p) => p.Properties.PolicyDocument.Statement)
        .filter((st: any) => [st.Action].flat().some((a: string) => a.startsWith('logs:')));
      expect(statements).toEqual([
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [fn.Properties.LoggingConfig.LogGroup.Ref, 'Arn'] },
        },
      ]);
    },
  );
});

describe('logs', () => {
  test("function logs (the hooks' and the canary receiver's too) are kept 30 days, the control room's audit lines 60 (past the tables' 35 days of backups), access logs 90 by default, all kept when the stack is deleted", () => {
    const groups = Object.values(template.findResources('AWS::Logs::LogGroup')) as any[];
    // The control room's function and its two hooks keep 60 days.
    expect(groups.map((g) => g.Properties.RetentionInDays).sort()).toEqual([...Array(20).fill(30), 60, 60, 60, 90]);
    const controlRoomLogs = template.toJSON().Outputs[OUTPUTS.controlRoomLogGroup].Value.Ref as string;
    expect(template.toJSON().Resources[controlRoomLogs].Properties.RetentionInDays).toBe(60);
    for (const group of groups) expect(group.DeletionPolicy).toBe('Retain');
  });
});

describe('the control-room function (internal)', () => {
  test('runs the control-room handler with the platform name as provider and its own service name', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Contacts control room'),
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Timeout: 300,
      Environment: {
        Variables: Match.objectLike({
          PLATFORM_NAME: 'Acme Platform',
          REFERENCE_TABLE_NAME: { Ref: Match.anyValue() },
          POWERTOOLS_SERVICE_NAME: CONTROL_ROOM_SERVICE_NAME,
        }),
      },
    });
  });

  test('is never retried by Lambda on async invocations (a retry could run a pass twice)', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionId('Contacts control room') },
      MaximumRetryAttempts: 0,
    });
  });

  test('has a function URL with IAM auth on its live alias, its address an output', () => {
    const controlRoom = functionId('Contacts control room');
    // The other URL is the canary receiver's (test below).
    const urls = Object.entries(resources('AWS::Lambda::Url', { TargetFunctionArn: { 'Fn::GetAtt': [controlRoom, 'Arn'] } }));
    expect(urls).toHaveLength(1);
    const [urlId, url] = urls[0] as [string, any];
    expect(url.Properties).toEqual({ AuthType: 'AWS_IAM', Qualifier: 'live', TargetFunctionArn: { 'Fn::GetAtt': [controlRoom, 'Arn'] } });
    expect(template.toJSON().Outputs[OUTPUTS.controlRoomUrl].Value).toEqual({ 'Fn::GetAtt': [urlId, 'FunctionUrl'] });
  });

  test("only the control room's role may call it, and only through the URL: no direct Invoke, no API Gateway route", () => {
    const controlRoom = functionId('Contacts control room');
    const [live] = Object.keys(resources('AWS::Lambda::Alias', { FunctionName: { Ref: controlRoom } }));
    expect(JSON.stringify(resources('AWS::ApiGateway::Method'))).not.toMatch(new RegExp(`${controlRoom}|${live}`));
    const permissions = (Object.values(resources('AWS::Lambda::Permission')) as any[]).filter((p) =>
      new RegExp(`${controlRoom}|${live}`).test(JSON.stringify(p.Properties.FunctionName)),
    );
    expect(permissions.map((p) => p.Properties)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Action: 'lambda:InvokeFunctionUrl', FunctionUrlAuthType: 'AWS_IAM', Principal: CONTROL_ROOM }),
        expect.objectContaining({ Action: 'lambda:InvokeFunction', InvokedViaFunctionUrl: true, Principal: CONTROL_ROOM }),
      ]),
    );
    expect(permissions).toHaveLength(2);
  });

  test("may only read, update and erase contacts, query the byCompany index, read the reference dataset and erase a vendor record, manage keys, read reports and a person's reports (and delete their feedback), read and update issues, and manage alert destinations", () => {
    expect(dynamoGrants(functionId('Contacts control room'))).toEqual({
      TablesAlerts: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
      TablesContacts: ['dynamodb:BatchGetItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
      'TablesContacts/index/byCompany': ['dynamodb:Query'],
      TablesReference: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem'],
      TablesKeys: ['dynamodb:BatchGetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      'TablesKeys/index/byFactory': ['dynamodb:Query'],
      'TablesKeys/index/byKeyId': ['dynamodb:Query'],
      TablesReports: ['dynamodb:BatchGetItem', 'dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'],
      'TablesReports/index/byFeed': ['dynamodb:Query'],
      'TablesReports/index/byIssue': ['dynamodb:Query'],
      'TablesReports/index/byPerson': ['dynamodb:Query'],
    });
  });

  test("may delete from the reports table only feedback, its issue links and a person's (issue, person) and (issue, company) pairs (an erasure's), never an event or an issue", () => {
    expect(deletesOnReports('Contacts control room')).toEqual([
      ['dynamodb:DeleteItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['feedback#*'] } }],
      ['dynamodb:DeleteItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['flink#*'] } }],
      ['dynamodb:DeleteItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['affected#*'] } }],
      ['dynamodb:DeleteItem', { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['affco#*'] } }],
    ]);
  });

  test("may write to the reference table only suppression items (an erasure's), never a vendor record, and takes no part in a load's transactions", () => {
    const fn = (resources('AWS::Lambda::Function') as any)[functionId('Contacts control room')];
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const statements = (Object.values(resources('AWS::IAM::Policy')) as any[])
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .filter((st: any) => /"TablesReference[0-9A-F]{8}"/.test(JSON.stringify(st.Resource)));
    const puts = statements.filter((st: any) => [st.Action].flat().includes('dynamodb:PutItem'));
    expect(puts).toEqual([
      expect.objectContaining({ Action: 'dynamodb:PutItem', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['suppressed#*'] } } }),
    ]);
    expect(statements.flatMap((st: any) => [st.Action].flat())).not.toContain('dynamodb:ConditionCheckItem');
  });
});

describe("the canary receiver (the deliverer's pre-traffic destination)", () => {
  test("is a function URL verifying signatures itself, capped at 2 invocations at once, whose role may write its log group and nothing else, and whose address and secret (the stack's random id) only the deliverer is given", () => {
    const receiver = functionId('Contacts canary receiver');
    const [url] = Object.values(resources('AWS::Lambda::Url', { TargetFunctionArn: { 'Fn::GetAtt': [receiver, 'Arn'] } })) as any[];
    expect(url.Properties).toEqual({ AuthType: 'NONE', TargetFunctionArn: { 'Fn::GetAtt': [receiver, 'Arn'] } });
    const fn = (resources('AWS::Lambda::Function') as any)[receiver];
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const actions = (Object.values(resources('AWS::IAM::Policy')) as any[])
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .flatMap((st: any) => [st.Action].flat());
    expect(actions.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    const secret = fn.Properties.Environment.Variables.CANARY_WEBHOOK_SECRET;
    // The random id CloudFormation gives the stack at its creation: nothing in the source or the stack's name derives it.
    expect(secret).toEqual({
      'Fn::Join': ['', ['whsec_', { 'Fn::Join': ['', { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] }] }]],
    });
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(2);
    const holders = (Object.values(resources('AWS::Lambda::Function')) as any[])
      .filter((f) => JSON.stringify(f.Properties.Environment ?? {}).includes(JSON.stringify(secret)))
      .map((f) => String(f.Properties.Description).split(':')[0]);
    expect(holders.sort()).toEqual(['Contacts alert deliverer', 'Contacts canary receiver']);
    const deliverer = (resources('AWS::Lambda::Function') as any)[functionId('Contacts alert deliverer')];
    expect(deliverer.Properties.Environment.Variables.CANARY_RECEIVER_URL).toEqual({
      'Fn::GetAtt': [Object.keys(resources('AWS::Lambda::Url', { TargetFunctionArn: { 'Fn::GetAtt': [receiver, 'Arn'] } }))[0], 'FunctionUrl'],
    });
  });
});

describe('API Gateway (issue point 6)', () => {
  test('a regional REST API', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
  });

  test('every method on every path goes to a Lambda through a proxy integration: /ingest/v1/* and /ingest/sentry/* to the ingest function, the rest to the contacts function', () => {
    const methods = Object.values(resources('AWS::ApiGateway::Method')) as any[];
    const apiResources = resources('AWS::ApiGateway::Resource') as Record<string, any>;
    /** The path of an API resource, from its parents' path parts. */
    const pathOf = (ref: any): string => {
      if (ref['Fn::GetAtt']) return '';
      const resource = apiResources[ref.Ref];
      return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
    };
    // Each integration invokes its function's live alias (test/cdk/deployments.test.ts).
    const [ingestAlias] = Object.keys(resources('AWS::Lambda::Alias', { FunctionName: { Ref: functionId('Contacts ingest API') } }));
    const [sourceMapsAlias] = Object.keys(resources('AWS::Lambda::Alias', { FunctionName: { Ref: functionId('Contacts source maps API') } }));
    const target = (method: any) => {
      const uri = JSON.stringify(method.Properties.Integration.Uri);
      return uri.includes(`"${ingestAlias}"`) ? 'ingest' : uri.includes(`"${sourceMapsAlias}"`) ? 'sourcemaps' : 'contacts';
    };
    const routes = Object.fromEntries(methods.map((method) => [pathOf(method.Properties.ResourceId) || '/', target(method)]));
    expect(routes).toEqual({
      '/': 'contacts',
      '/{proxy+}': 'contacts',
      '/ingest': 'contacts',
      '/ingest/v1': 'contacts',
      '/ingest/v1/{proxy+}': 'ingest',
      '/ingest/sentry': 'contacts',
      '/ingest/sentry/{proxy+}': 'ingest',
      '/sourcemaps': 'contacts',
      '/sourcemaps/v1': 'contacts',
      '/sourcemaps/v1/{proxy+}': 'sourcemaps',
    });
    for (const method of methods) {
      expect(method.Properties.HttpMethod).toBe('ANY');
      expect(method.Properties.Integration.Type).toBe('AWS_PROXY');
      expect(method.Properties.AuthorizationType).toBe('NONE');
    }
  });

  test('no CORS in the gateway: no OPTIONS method and no Access-Control-* header anywhere (the ingest function answers its own)', () => {
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

  test('the stage throttles the contacts API by default and the public routes apart (test/cdk/api-limits.test.ts), writes access logs and no execution logs', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      MethodSettings: Match.arrayWith([
        Match.objectLike({ ResourcePath: '/*', ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000, LoggingLevel: 'OFF', DataTraceEnabled: false }),
        Match.objectLike({ ResourcePath: '/~1ingest~1v1~1{proxy+}', ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000, LoggingLevel: 'OFF' }),
      ]),
    });
  });

  test('the access log format holds no query string or header', () => {
    const stage = Object.values(resources('AWS::ApiGateway::Stage'))[0] as any;
    expect(stage.Properties.AccessLogSetting.Format).not.toMatch(/querystring|header|authorization/i);
  });
});

describe('tables (issue point 7)', () => {
  test('all on demand, with point-in-time recovery, encryption, deletion protection, retained on delete', () => {
    const tables = template.findResources('AWS::DynamoDB::Table');
    expect(Object.keys(tables)).toHaveLength(5);
    for (const table of Object.values(tables) as any[]) {
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      expect(table.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
        DeletionProtectionEnabled: true,
      });
    }
  });

  test('the contacts table is keyed by factory and sort key, as the code expects, and expires passId items', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      KeySchema: [
        { AttributeName: CONTACTS_KEY.partitionKey, KeyType: 'HASH' },
        { AttributeName: CONTACTS_KEY.sortKey, KeyType: 'RANGE' },
      ],
    });
  });

  test('the contacts table has a keys-only index of contacts (and companies) by company', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: CONTACTS_KEY.partitionKey, KeyType: 'HASH' },
        { AttributeName: CONTACTS_KEY.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: CONTACTS_BY_COMPANY.indexName,
          KeySchema: [
            { AttributeName: CONTACTS_BY_COMPANY.partitionKey, KeyType: 'HASH' },
            { AttributeName: CONTACTS_BY_COMPANY.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
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

  test("the reports table is keyed by pk, expires every item, reads a factory newest first through a small index, an issue's events through another, and a person's reports through a third (keys only)", () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: REPORTS_KEY.partitionKey, KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      GlobalSecondaryIndexes: [
        {
          IndexName: REPORTS_BY_FEED.indexName,
          KeySchema: [
            { AttributeName: 'feed', KeyType: 'HASH' },
            { AttributeName: 'receivedAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['type', 'expiresAt'] },
        },
        {
          IndexName: REPORTS_BY_ISSUE.indexName,
          KeySchema: [
            { AttributeName: 'issueId', KeyType: 'HASH' },
            { AttributeName: 'receivedAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['expiresAt'] },
        },
        {
          IndexName: REPORTS_BY_PERSON.indexName,
          KeySchema: [
            { AttributeName: 'person', KeyType: 'HASH' },
            { AttributeName: 'receivedAt', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'KEYS_ONLY' },
        },
      ],
    });
  });
});

describe('outputs', () => {
  test('the API URL, the names the commands and the runbook read, the platform name and the default rate limit', () => {
    const outputs = template.toJSON().Outputs;
    expect(Object.keys(outputs).sort()).toEqual(Object.values(OUTPUTS).sort());
    expect(outputs[OUTPUTS.platformName].Value).toBe('Acme Platform');
    expect(outputs[OUTPUTS.defaultRateLimit].Value).toBe('30000');
  });
});
