import { Aspects, CfnResource, type Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { ContactsStack, type ContactsStackProps } from '../../lib/contacts-stack';
import { ENV, testApp } from './synth';

/** The rule packs applied, by the prefix of their rule ids. */
const PACKS = /AwsSolutions-|Serverless-/;

/** A stack with cdk-nag's AwsSolutions and Serverless packs applied, logging the findings they suppressed. */
function checked(props: ContactsStackProps): { stack: Stack; annotations: Annotations } {
  const app = testApp({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ContactsStack(app, 'NagContacts', { env: ENV, ...props });
  Aspects.of(stack).add(new AwsSolutionsChecks({ logIgnores: true }));
  Aspects.of(stack).add(new ServerlessChecks({ logIgnores: true }));
  return { stack, annotations: Annotations.fromStack(stack) };
}

const describeFindings = (found: { id: string; entry: { data?: unknown } }[]) => found.map((m) => `${m.id}: ${String(m.entry.data).trim()}`);

/** Every suppression written on the stack's resources, with the resource's path. */
function suppressionsIn(stack: Stack): { path: string; id: string; reason: string }[] {
  return stack.node
    .findAll()
    .filter((c): c is CfnResource => CfnResource.isCfnResource(c))
    .flatMap((resource) => {
      const rules = (resource.getMetadata('cdk_nag') as { rules_to_suppress?: { id: string; reason: string }[] } | undefined)?.rules_to_suppress ?? [];
      return rules.map((rule) => ({ path: `/${resource.node.path}`, ...rule }));
    });
}

describe.each([
  [
    'every optional resource (alarm mail, control room, logging role)',
    {
      alarmEmail: 'oncall@example.com',
      controlRoomRoleArn: 'arn:aws:iam::123456789012:role/ControlRoom',
    },
  ],
  [
    'without the logging role, on a stage destroyed with the stack, all at once, with provisioned concurrency',
    {
      cloudWatchRole: false,
      stageName: 'dev',
      removalPolicy: 'destroy' as const,
      trafficShift: 'all-at-once' as const,
      provisionedConcurrency: 2,
    },
  ],
])('cdk-nag AwsSolutions and Serverless, %s', (_, props) => {
  let stack: Stack;
  let annotations: Annotations;
  beforeAll(() => {
    ({ stack, annotations } = checked(props));
  }, 60_000);

  test('finds no error that is not fixed or suppressed', () => {
    expect(describeFindings(annotations.findError('*', Match.stringLikeRegexp(PACKS.source)))).toEqual([]);
  });

  test('finds no warning, and no rule failed to run', () => {
    expect(describeFindings(annotations.findWarning('*', Match.stringLikeRegexp(`${PACKS.source}|CdkNagValidationFailure`)))).toEqual([]);
  });

  test('every suppression silences a finding that really occurs (none is left over from a fix)', () => {
    const suppressed = annotations
      .findInfo('*', Match.stringLikeRegexp('was triggered but suppressed'))
      .map((m) => `${m.id} ${/((?:AwsSolutions|Serverless)-\w+) was triggered/.exec(String(m.entry.data))![1]}`);
    const written = suppressionsIn(stack).map(({ path, id }) => `${path} ${id}`);
    expect(written.length).toBeGreaterThan(0);
    // A set: a rule can fire more than once on one resource.
    expect([...new Set(suppressed)].sort()).toEqual(written.sort());
  });

  test('every suppression gives its reason in at least a sentence', () => {
    for (const { path, id, reason } of suppressionsIn(stack)) {
      expect(`${path} ${id}: ${reason.length >= 80 ? 'reasoned' : reason}`).toBe(`${path} ${id}: reasoned`);
    }
  });
});
