import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveDeployOptions } from '../../lib/deploy-options';
import { StackConfigurationError, stackOptions } from '../../lib/stack-configuration';

/**
 * Where a deploy's options come from (lib/stack-configuration.ts): the stack's section of cdk.json, the shared keys,
 * -c for one deploy, and the options that must persist. `given` is the app's context as CDK hands it: cdk.json's
 * flat values, with a -c value in place of one.
 */
const ROLE = 'arn:aws:iam::123456789012:role/ControlRoom';
const configured = {
  platformName: 'Acme Platform',
  stacks: {
    ContactsService: { controlRoomRoleArn: ROLE, alarmEmail: 'oncall@example.com', throttleRate: 800 },
    ContactsDev: { stageName: 'dev', removalPolicy: 'destroy' },
  },
};
const options = (stackName: string, given: Record<string, unknown> = {}, file: Record<string, unknown> = configured) =>
  stackOptions({ stackName, configured: file, given: { platformName: file.platformName, ...given } });

test("a stack's section and the shared keys give its options, every deploy alike", () => {
  expect(options('ContactsService')).toEqual({ platformName: 'Acme Platform', controlRoomRoleArn: ROLE, alarmEmail: 'oncall@example.com', throttleRate: 800 });
  expect(options('ContactsDev')).toEqual({ platformName: 'Acme Platform', stageName: 'dev', removalPolicy: 'destroy' });
});

test('-c changes an option for one deploy, over the section', () => {
  expect(options('ContactsService', { throttleRate: '1200', trafficShift: 'all-at-once' })).toMatchObject({
    throttleRate: '1200',
    trafficShift: 'all-at-once',
  });
});

test.each([
  ['controlRoomRoleArn', 'arn:aws:iam::123456789012:role/Other'],
  ['alarmEmail', 'me@example.com'],
  ['stageName', 'staging'],
  ['alertEmails', 'a@example.com'],
])('refuses -c %s=… that differs from the configuration: it must persist, so it is written in cdk.json', (name, value) => {
  expect(() => options('ContactsService', { [name]: value })).toThrow(
    new StackConfigurationError(
      `-c ${name}=${value}: ${name} must persist from deploy to deploy: write it in cdk.json under context.stacks.ContactsService.${name} (a command line alone would be undone by the next deploy without it)`,
    ),
  );
});

test('accepts -c of a persistent option that says what the configuration says', () => {
  expect(options('ContactsService', { controlRoomRoleArn: ROLE })).toMatchObject({ controlRoomRoleArn: ROLE });
});

test('the production stage must state its control-room role and alarm address; "none" says no one, deliberately', () => {
  expect(() => options('Unconfigured')).toThrow(
    /stack Unconfigured deploys the production stage \(stageName prod\): cdk\.json must state controlRoomRoleArn and alarmEmail under context\.stacks\.Unconfigured/,
  );
  const none = { stacks: { Quiet: { controlRoomRoleArn: 'none', alarmEmail: 'none' } } };
  expect(options('Quiet', {}, none)).toEqual({});
  const resolved = resolveDeployOptions(options('Quiet', {}, none));
  expect([resolved.stageName, resolved.controlRoomRoleArn, resolved.alarmEmail]).toEqual(['prod', undefined, undefined]);
});

test('a section naming something that is not an option, or that is not an object, is refused, naming it', () => {
  expect(() => options('X', {}, { stacks: { X: { stageName: 'dev', controlRoomArn: ROLE } } })).toThrow(
    /context\.stacks\.X names "controlRoomArn", not a deploy option/,
  );
  expect(() => options('X', {}, { stacks: { X: 'dev' } })).toThrow(/context\.stacks\.X must be an object/);
  expect(() => options('X', {}, { stacks: [] })).toThrow(/context\.stacks must be an object/);
});

test("the checkout's own cdk.json gives the default stack valid options: cdk synth works offline, as it is", () => {
  const cdkJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  const given = Object.fromEntries(Object.entries(cdkJson.context).filter(([key]) => !key.includes(':')));
  const resolved = resolveDeployOptions(stackOptions({ stackName: 'ContactsService', configured: cdkJson.context, given }));
  expect([resolved.stageName, resolved.controlRoomRoleArn, resolved.alarmEmail]).toEqual(['prod', undefined, undefined]);
});
