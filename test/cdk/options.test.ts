import { Match, type Template } from 'aws-cdk-lib/assertions';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../../lambda/kernel/limits';
import { DEFAULT_DEPLOY_OPTIONS, resolveDeployOptions } from '../../lib/deploy-options';
import { OUTPUTS, rateLimitFromOutput } from '../../lib/outputs';
import { resourcesOf, synthStack } from './synth';

const PROJECT_ROOT = join(__dirname, '..', '..');

describe('resolveDeployOptions', () => {
  test('fills every option it is not given with its default', () => {
    expect(resolveDeployOptions({})).toEqual({
      stageName: 'prod',
      throttleRate: 1000,
      throttleBurst: 2000,
      ingestThrottleRate: 500,
      ingestThrottleBurst: 1000,
      sourceMapsThrottleRate: 20,
      sourceMapsThrottleBurst: 40,
      cloudWatchRole: true,
      platformName: 'platform',
      defaultRateLimit: DEFAULT_RATE_LIMIT_PER_MINUTE,
      logRetentionDays: 30,
      accessLogRetentionDays: 90,
      apiMemoryMb: 1024,
      logLevel: 'INFO',
      removalPolicy: 'retain',
      reportRetentionDays: 90,
      trafficShift: 'canary',
      bakeMinutes: 10,
      provisionedConcurrency: 0,
      alertEmails: [],
      alertLinkBase: 'http://127.0.0.1:4000',
    });
  });

  test('reads -c values, which arrive as strings, into their types', () => {
    expect(
      resolveDeployOptions({
        stageName: 'staging',
        throttleRate: '250.5',
        throttleBurst: '500',
        cloudWatchRole: 'false',
        defaultRateLimit: '600',
        logRetentionDays: '14',
        accessLogRetentionDays: '365',
        alarmEmail: 'oncall@example.com',
        apiMemoryMb: '1769',
        logLevel: 'debug',
        removalPolicy: 'DESTROY',
        controlRoomRoleArn: 'arn:aws:iam::123456789012:role/ControlRoom',
        reportRetentionDays: '30',
        trafficShift: 'All-At-Once',
        bakeMinutes: '0',
        provisionedConcurrency: '5',
      }),
    ).toEqual({
      ...DEFAULT_DEPLOY_OPTIONS,
      stageName: 'staging',
      throttleRate: 250.5,
      throttleBurst: 500,
      cloudWatchRole: false,
      defaultRateLimit: 600,
      logRetentionDays: 14,
      accessLogRetentionDays: 365,
      alarmEmail: 'oncall@example.com',
      apiMemoryMb: 1769,
      logLevel: 'DEBUG',
      removalPolicy: 'destroy',
      controlRoomRoleArn: 'arn:aws:iam::123456789012:role/ControlRoom',
      reportRetentionDays: 30,
      trafficShift: 'all-at-once',
      bakeMinutes: 0,
      provisionedConcurrency: 5,
    });
  });

  test.each([
    ['stageName', 'pro d', /letters, digits, - or _/],
    ['throttleRate', '0', /a positive number/],
    ['throttleBurst', '1.5', /a positive whole number/],
    ['cloudWatchRole', 'yes', /true or false/],
    ['platformName', ' ', /a name of 1 to 100 characters/],
    ['controlRoomRoleArn', 'ControlRoom', /an IAM role ARN/],
    ['defaultRateLimit', '0', /a whole number from 1 to 1000000/],
    ['defaultRateLimit', '2000000', /a whole number from 1 to 1000000/],
    ['logRetentionDays', '10', /a number of days CloudWatch Logs accepts: 1, 3, 5/],
    ['accessLogRetentionDays', 'forever', /a number of days CloudWatch Logs accepts/],
    ['alarmEmail', 'oncall', /an email address/],
    ['apiMemoryMb', '64', /a whole number from 128 to 10240/],
    ['logLevel', 'verbose', /one of DEBUG, INFO, WARN, ERROR, SILENT/],
    ['removalPolicy', 'snapshot', /one of retain, destroy/],
    ['reportRetentionDays', '0', /a whole number from 1 to 3650/],
    ['reportRetentionDays', '90.5', /a whole number from 1 to 3650/],
    ['trafficShift', 'linear', /one of canary, all-at-once/],
    ['provisionedConcurrency', '-1', /a whole number from 0 to 1000/],
    ['provisionedConcurrency', '2.5', /a whole number from 0 to 1000/],
    ['bakeMinutes', '15', /a whole number from 0 to 14/],
    ['bakeMinutes', '-1', /a whole number from 0 to 14/],
  ])('refuses %s=%j with a message naming the option and what it accepts', (name, value, expected) => {
    expect(() => resolveDeployOptions({ stageName: 'dev', [name]: value })).toThrow(`-c ${name}=${value}: expected `);
    expect(() => resolveDeployOptions({ stageName: 'dev', [name]: value })).toThrow(expected);
  });

  test('refuses bakeMinutes=0 on the production stage: every production release is watched after the switch', () => {
    expect(() => resolveDeployOptions({ bakeMinutes: '0' })).toThrow(/-c bakeMinutes=0: expected at least 1 on the production stage/);
  });

  test('refuses removalPolicy=destroy on the production stage', () => {
    expect(() => resolveDeployOptions({ removalPolicy: 'destroy' })).toThrow(/-c removalPolicy=destroy: expected retain on the production stage/);
  });
});

describe('a stack deployed with options', () => {
  let template: Template;
  beforeAll(() => {
    ({ template } = synthStack({
      stageName: 'staging',
      apiMemoryMb: 2048,
      logLevel: 'WARN',
      logRetentionDays: 7,
      accessLogRetentionDays: 365,
      removalPolicy: 'destroy',
      defaultRateLimit: 600,
      reportRetentionDays: 30,
    }));
  }, 60_000);

  test('serves the API on the stage it names, and the ApiUrl output ends with that stage', () => {
    const stages = resourcesOf(template, 'AWS::ApiGateway::Stage', { StageName: 'staging' });
    expect(Object.keys(stages)).toHaveLength(1);
    const url = template.toJSON().Outputs[OUTPUTS.apiUrl].Value['Fn::Join'][1] as unknown[];
    expect(url.slice(-2)).toEqual([{ Ref: Object.keys(stages)[0] }, '/']);
  });

  test('gives the API and ingest functions their memory, and leaves the control-room function at 1 GB', () => {
    template.hasResourceProperties('AWS::Lambda::Function', { Description: Match.stringLikeRegexp('^Contacts API'), MemorySize: 2048 });
    template.hasResourceProperties('AWS::Lambda::Function', { Description: Match.stringLikeRegexp('^Contacts ingest API'), MemorySize: 2048 });
    template.hasResourceProperties('AWS::Lambda::Function', { Description: Match.stringLikeRegexp('^Contacts control room'), MemorySize: 1024 });
  });

  test('sets LOG_LEVEL on every function of the service and the canary receiver (the pre-traffic hooks log at INFO: one line per probe, once per deploy)', () => {
    const functions = Object.values(resourcesOf(template, 'AWS::Lambda::Function')) as {
      Properties: { Description: string; Environment: { Variables: Record<string, unknown> } };
    }[];
    const isHook = (description: string) => /^(Pre-traffic check|Bake) of |^Deployment hook failures/.test(description);
    const level = (hook: boolean) =>
      functions.filter((f) => isHook(f.Properties.Description) === hook).map((f) => f.Properties.Environment.Variables.LOG_LEVEL);
    expect(level(false)).toEqual(['WARN', 'WARN', 'WARN', 'WARN', 'WARN', 'WARN', 'WARN', 'WARN']);
    // Seven pre-traffic checks, seven bakes and the hooks' failure reporter.
    expect(level(true)).toEqual(Array(15).fill('INFO'));
  });

  test('gives the ingest function the report retention, in days', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^Contacts ingest API'),
      Environment: { Variables: Match.objectLike({ REPORT_RETENTION_DAYS: '30' }) },
    });
  });

  test("keeps the functions' logs (the hooks' too) logRetentionDays, the control room's at least 60 days (its audit lines), and the access logs accessLogRetentionDays", () => {
    const days = Object.values(resourcesOf(template, 'AWS::Logs::LogGroup'))
      .map((g) => g.Properties.RetentionInDays)
      .sort((a, b) => Number(a) - Number(b));
    expect(days).toEqual([...Array(20).fill(7), 60, 60, 60, 365]);
  });

  test('removalPolicy=destroy: tables and logs go with the stack, and deletion protection is off', () => {
    for (const type of ['AWS::DynamoDB::Table', 'AWS::Logs::LogGroup']) {
      for (const resource of Object.values(template.findResources(type)) as { DeletionPolicy: string; Properties: Record<string, unknown> }[]) {
        expect(resource.DeletionPolicy).toBe('Delete');
        if (type === 'AWS::DynamoDB::Table') expect(resource.Properties.DeletionProtectionEnabled).toBe(false);
      }
    }
  });

  test('the DefaultRateLimit output holds defaultRateLimit, as the keys command reads it', () => {
    const output = template.toJSON().Outputs[OUTPUTS.defaultRateLimit].Value as string;
    expect(rateLimitFromOutput(output)).toBe(600);
  });
});

describe('rateLimitFromOutput (what keys --stack create uses without --rate-limit)', () => {
  test('is undefined for a stack without the output, so the built-in default applies', () => {
    expect(rateLimitFromOutput(undefined)).toBeUndefined();
  });

  test.each(['', 'abc', '0', '1.5', '-3'])('refuses a malformed output %j instead of guessing', (value) => {
    expect(() => rateLimitFromOutput(value)).toThrow(/DefaultRateLimit output/);
  });
});

describe('bin/contacts.ts (what cdk synth and cdk deploy run)', () => {
  /**
   * Runs the app as the CLI does: from the folder of a cdk.json (`fileContext` its context; the checkout's own when
   * absent), with that context and the -c values merged into CDK_CONTEXT_JSON, the -c values winning.
   */
  const synthApp = (context: Record<string, string>, fileContext?: Record<string, unknown>) => {
    const outdir = mkdtempSync(join(tmpdir(), 'contacts-bin-'));
    if (fileContext) writeFileSync(join(outdir, 'cdk.json'), JSON.stringify({ context: fileContext }));
    // tsx by its path: the working directory may be another folder than the project's.
    const tsx = pathToFileURL(join(PROJECT_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const run = spawnSync(process.execPath, ['--import', tsx, join(PROJECT_ROOT, 'bin', 'contacts.ts')], {
      cwd: fileContext ? outdir : PROJECT_ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        CDK_OUTDIR: outdir,
        CDK_VALIDATION: 'false',
        // As `cdk synth -c …` passes them; bundling skipped, the template is what matters here.
        CDK_CONTEXT_JSON: JSON.stringify({ ...fileContext, ...context, 'aws:cdk:bundling-stacks': [] }),
      },
    });
    const read = (file: string) => JSON.parse(readFileSync(join(outdir, file), 'utf8'));
    return { run, read, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
  };
  const DEV = { stacks: { ContactsDev: { stageName: 'dev', removalPolicy: 'destroy', alarmEmail: 'oncall@example.com' } } };

  test("reads the stack's options from its section of cdk.json, and the others from -c", () => {
    const { run, read, cleanup } = synthApp(
      {
        stackName: 'ContactsDev',
        defaultRateLimit: '120',
        trafficShift: 'all-at-once',
        provisionedConcurrency: '2',
      },
      DEV,
    );
    try {
      expect(run.stderr).not.toMatch(/Error/);
      expect(run.status).toBe(0);
      const template = read('ContactsDev.template.json');
      const resources = Object.values(template.Resources) as { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string }[];
      expect(resources.find((r) => r.Type === 'AWS::ApiGateway::Stage')?.Properties.StageName).toBe('dev');
      expect(resources.find((r) => r.Type === 'AWS::DynamoDB::Table')?.DeletionPolicy).toBe('Delete');
      expect(resources.find((r) => r.Type === 'AWS::SNS::Subscription')?.Properties.Endpoint).toBe('oncall@example.com');
      expect(template.Outputs[OUTPUTS.defaultRateLimit].Value).toBe('120');
      expect(resources.find((r) => r.Type === 'AWS::CodeDeploy::DeploymentGroup')?.Properties.DeploymentConfigName).toBe('CodeDeployDefault.LambdaAllAtOnce');
      expect(resources.filter((r) => r.Type === 'AWS::Lambda::Alias').map((r) => r.Properties.ProvisionedConcurrencyConfig)).toContainEqual({
        ProvisionedConcurrentExecutions: 2,
      });
    } finally {
      cleanup();
    }
  }, 60_000);

  test('stops, saying where to write it, when -c gives an option that must persist', () => {
    const { run, cleanup } = synthApp({ stackName: 'ContactsDev', alarmEmail: 'me@example.com' }, DEV);
    cleanup();
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(
      '-c alarmEmail=me@example.com: alarmEmail must persist from deploy to deploy: write it in cdk.json under context.stacks.ContactsDev.alarmEmail',
    );
  }, 60_000);

  test('stops with the option named when a value is bad', () => {
    const { run, cleanup } = synthApp({ apiMemoryMb: '64' });
    cleanup();
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('-c apiMemoryMb=64: expected a whole number from 128 to 10240');
  }, 60_000);
});
