import type { ContactsStackProps } from '../../lib/contacts-stack';
import { LambdaModel, StackModel, type Template } from '../support/release-model';
import { synthStack } from './synth';

/**
 * Deploys, rollbacks and redeploys of the synthesized template, played
 * against a model of Lambda's publish rule and CloudFormation's deletion
 * policies (test/support/release-model.ts; docs/deploying.md#every-version-is-kept).
 * Each commit is a new configuration of every function (its description
 * names the commit), so each deploy of a new commit publishes a version of
 * each.
 */
const STACK = 'TestReleases';
const COMMIT_A = 'a'.repeat(40);
const COMMIT_B = 'b'.repeat(40);

const templateOf = (props: ContactsStackProps): Template => synthStack(props, STACK).template.toJSON() as Template;

let releaseA: Template;
let releaseB: Template;
beforeAll(() => {
  releaseA = templateOf({ commit: COMMIT_A });
  releaseB = templateOf({ commit: COMMIT_B });
}, 60_000);

const idsOf = (template: Template, type: string) =>
  Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === type)
    .map(([id]) => id);

/** The contacts API's alias: the one whose release the plays below refuse. */
const apiAliasOf = (template: Template) => {
  const [fnId] = Object.entries(template.Resources).find(
    ([, r]) => r.Type === 'AWS::Lambda::Function' && String(r.Properties?.Description).startsWith('Contacts API:'),
  ) as [string, unknown];
  return idsOf(template, 'AWS::Lambda::Alias').find((id) => (template.Resources[id]?.Properties?.FunctionName as { Ref: string }).Ref === fnId) as string;
};

/** Every released function's name in the model and the version its alias points at. */
function liveVersions(stack: StackModel, template: Template): Record<string, string | undefined> {
  return Object.fromEntries(idsOf(template, 'AWS::Lambda::Alias').map((id) => [id, stack.aliasVersion(id)]));
}

/** A fresh account with release A deployed. */
function deployedA(template: Template = releaseA) {
  const lambda = new LambdaModel();
  const stack = new StackModel(lambda, STACK);
  expect(stack.deploy(template).status).toBe('CREATE_COMPLETE');
  return { lambda, stack };
}

/** The same template with another deletion policy on every version: what the stack had before this rule. */
const withVersionPolicy = (template: Template, policy: string): Template => ({
  Resources: Object.fromEntries(
    Object.entries(template.Resources).map(([id, r]) => [id, r.Type === 'AWS::Lambda::Version' ? { ...r, DeletionPolicy: policy } : r]),
  ),
});

test('the model reproduces the refusal: with Retain on versions, deploying a refused release again fails in Lambda, and rolls back again', () => {
  const [a, b] = [withVersionPolicy(releaseA, 'Retain'), withVersionPolicy(releaseB, 'Retain')];
  const { stack } = deployedA(a);
  expect(stack.deploy(b, { [apiAliasOf(b)]: 'fails' }).status).toBe('UPDATE_ROLLBACK_COMPLETE');
  const again = stack.deploy(b);
  expect(again.status).toBe('UPDATE_ROLLBACK_COMPLETE');
  expect(again.reason).toMatch(/A version for this Lambda function exists \( \d+ \)\. Modify the function to create a new version\./);
});

test('deploy, rollback, the same deploy again: it succeeds, every function runs the new release, and each keeps the version before it', () => {
  const { lambda, stack } = deployedA();
  const first = liveVersions(stack, releaseA);
  const refused = stack.deploy(releaseB, { [apiAliasOf(releaseB)]: 'fails' });
  expect(refused).toMatchObject({ status: 'UPDATE_ROLLBACK_COMPLETE', reason: expect.stringMatching(/CodeDeploy stopped the deployment/) });
  expect(liveVersions(stack, releaseA)).toEqual(first);

  expect(stack.deploy(releaseB)).toEqual({ status: 'UPDATE_COMPLETE' });
  const live = liveVersions(stack, releaseB);
  expect(Object.keys(live)).toHaveLength(7);
  for (const [aliasId, version] of Object.entries(live)) {
    const fnName = `${STACK}-${(releaseB.Resources[aliasId]?.Properties?.FunctionName as { Ref: string }).Ref}`;
    // Version 1 (release A, N−1) is kept; version 2 (the refused one) went with its rollback; 3 runs.
    expect([version, lambda.versionsOf(fnName)]).toEqual(['3', [1, 3]]);
  }
}, 60_000);

test('after a rollback, a redeploy that changes some functions and not others succeeds for both', () => {
  // The fix changes the contacts and ingest functions' memory only: every other function is exactly the refused release.
  const fix = templateOf({ commit: COMMIT_B, apiMemoryMb: 1536 });
  const { stack } = deployedA();
  expect(stack.deploy(releaseB, { [apiAliasOf(releaseB)]: 'fails' }).status).toBe('UPDATE_ROLLBACK_COMPLETE');
  expect(stack.deploy(fix)).toEqual({ status: 'UPDATE_COMPLETE' });
  expect(Object.values(liveVersions(stack, fix))).toEqual(Array(7).fill('3'));
}, 60_000);

test('a release that passed, then the previous commit deployed again (the manual rollback): Lambda publishes the old code as a new version', () => {
  const { lambda, stack } = deployedA();
  expect(stack.deploy(releaseB).status).toBe('UPDATE_COMPLETE');
  expect(stack.deploy(releaseA)).toEqual({ status: 'UPDATE_COMPLETE' });
  const aliasId = apiAliasOf(releaseA);
  const fnName = `${STACK}-${(releaseA.Resources[aliasId]?.Properties?.FunctionName as { Ref: string }).Ref}`;
  expect([stack.aliasVersion(aliasId), lambda.versionsOf(fnName)]).toEqual(['3', [1, 2, 3]]);
}, 60_000);
