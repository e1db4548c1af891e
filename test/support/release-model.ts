/**
 * A model of the two AWS rules a release of this stack meets, to play
 * deploys, rollbacks and redeploys of synthesized templates without an
 * account (docs/deploying.md#every-version-is-kept):
 *
 * - Lambda's publish rule (PublishVersion): a version is published from the
 *   function's current code and configuration, and none is published when
 *   they equal the last version's: the call fails with "A version for this
 *   Lambda function exists (N). Modify the function to create a new version."
 *   Version numbers are never reused.
 * - CloudFormation's update and rollback with each resource's DeletionPolicy:
 *   a resource the new template no longer holds is deleted after a
 *   successful update unless its policy is Retain or RetainExceptOnCreate;
 *   when the update fails, the resources it created are deleted while the
 *   stack rolls back, unless their policy is Retain (RetainExceptOnCreate
 *   deletes them then: the only operation it does not retain for).
 *
 * Only what decides a release is modelled: functions (their version-locked
 * properties as the configuration Lambda compares), versions, and aliases
 * moved by CodeDeploy, whose outcome per alias the caller chooses.
 */

type Json = Record<string, unknown>;

export interface TemplateResource {
  Type: string;
  Properties?: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

export interface Template {
  Resources: Record<string, TemplateResource>;
}

/** What CodeDeploy does with one alias's deployment. */
export type Deployment = 'succeeds' | 'fails';

export interface DeployResult {
  status: 'CREATE_COMPLETE' | 'UPDATE_COMPLETE' | 'UPDATE_ROLLBACK_COMPLETE' | 'UPDATE_FAILED_BEFORE_ROLLBACK';
  /** Why the update failed: the resource and the service's words. */
  reason?: string;
}

/**
 * The properties of AWS::Lambda::Function that make up a version: Lambda
 * publishes a new version only when one of them changed (aws-cdk-lib's
 * VERSION_LOCKED list names the same ones).
 */
const VERSION_LOCKED = [
  'Architectures',
  'Code',
  'DeadLetterConfig',
  'Description',
  'Environment',
  'EphemeralStorage',
  'FileSystemConfigs',
  'Handler',
  'ImageConfig',
  'KmsKeyArn',
  'Layers',
  'LoggingConfig',
  'MemorySize',
  'PackageType',
  'Role',
  'Runtime',
  'SnapStart',
  'Timeout',
  'TracingConfig',
  'VpcConfig',
];

const configOf = (props: Json | undefined): string => JSON.stringify(VERSION_LOCKED.map((key) => [key, props?.[key] ?? null]));

/** A refusal by Lambda, in its own words. */
export class LambdaError extends Error {}

interface PublishedVersion {
  number: number;
  config: string;
}

interface LambdaFunction {
  /** $LATEST's configuration. */
  latest: string;
  versions: PublishedVersion[];
  next: number;
}

/** Lambda, as far as publishing and deleting versions goes. */
export class LambdaModel {
  readonly functions = new Map<string, LambdaFunction>();

  create(name: string, config: string): void {
    this.functions.set(name, { latest: config, versions: [], next: 1 });
  }

  update(name: string, config: string): void {
    this.fn(name).latest = config;
  }

  /** PublishVersion: refused when $LATEST equals the last version still there. */
  publish(name: string): number {
    const fn = this.fn(name);
    const last = fn.versions.at(-1);
    if (last && last.config === fn.latest) {
      throw new LambdaError(`A version for this Lambda function exists ( ${last.number} ). Modify the function to create a new version.`);
    }
    const number = fn.next++;
    fn.versions.push({ number, config: fn.latest });
    return number;
  }

  deleteVersion(name: string, number: number): void {
    const fn = this.fn(name);
    fn.versions = fn.versions.filter((version) => version.number !== number);
  }

  /** The numbers of the versions a function has. */
  versionsOf(name: string): number[] {
    return this.fn(name).versions.map((version) => version.number);
  }

  private fn(name: string): LambdaFunction {
    const fn = this.functions.get(name);
    if (!fn) throw new LambdaError(`Function not found: ${name}`);
    return fn;
  }
}

/** What the stack holds of one resource: its physical id (a function's name, a version's number) and its template entry. */
interface Held {
  resource: TemplateResource;
  physical: string;
}

const refOf = (value: unknown): string => (value as { Ref: string }).Ref;
const versionOfAlias = (alias: TemplateResource): string => ((alias.Properties?.FunctionVersion as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'] ?? [])[0];

const RETAINED_AFTER_UPDATE = new Set(['Retain', 'RetainExceptOnCreate']);

/** One stack, deployed template after template. */
export class StackModel {
  held = new Map<string, Held>();
  private deployed = false;

  constructor(
    readonly lambda: LambdaModel,
    readonly name: string,
  ) {}

  /** The version number the stack's alias `aliasId` points at, or undefined. */
  aliasVersion(aliasId: string): string | undefined {
    return this.held.get(aliasId)?.physical;
  }

  /**
   * One `cdk deploy` of `template`: functions first, then the versions
   * they need, then the aliases, each alias's CodeDeploy deployment ending
   * as `deployments` says (succeeds when it says nothing). A failure rolls
   * the whole update back.
   */
  deploy(template: Template, deployments: Record<string, Deployment> = {}): DeployResult {
    const before = new Map(this.held);
    const created: string[] = [];
    const changedFunctions: [string, string][] = [];
    const byType = (type: string) => Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
    const creating = !this.deployed;
    try {
      for (const [id, resource] of byType('AWS::Lambda::Function')) {
        const config = configOf(resource.Properties);
        const old = this.held.get(id);
        if (!old) {
          const name = `${this.name}-${id}`;
          this.lambda.create(name, config);
          this.held.set(id, { resource, physical: name });
          created.push(id);
        } else if (configOf(old.resource.Properties) !== config) {
          changedFunctions.push([old.physical, configOf(old.resource.Properties)]);
          this.lambda.update(old.physical, config);
          this.held.set(id, { resource, physical: old.physical });
        }
      }
      for (const [id, resource] of byType('AWS::Lambda::Version')) {
        if (this.held.has(id)) continue;
        const fnName = this.functionName(refOf(resource.Properties?.FunctionName));
        try {
          this.held.set(id, { resource, physical: String(this.lambda.publish(fnName)) });
        } catch (error) {
          throw new Error(`${id}: ${(error as Error).message}`);
        }
        created.push(id);
      }
      for (const [id, resource] of byType('AWS::Lambda::Alias')) {
        const version = this.held.get(versionOfAlias(resource))?.physical as string;
        const old = this.held.get(id);
        if (old && old.physical !== version && !creating && deployments[id] === 'fails') {
          throw new Error(`${id}: CodeDeploy stopped the deployment (an alarm fired): traffic is back on version ${old.physical}`);
        }
        this.held.set(id, { resource, physical: version });
        if (!old) created.push(id);
      }
    } catch (error) {
      if (creating) return { status: 'UPDATE_FAILED_BEFORE_ROLLBACK', reason: (error as Error).message };
      this.rollBack(before, created, changedFunctions);
      return { status: 'UPDATE_ROLLBACK_COMPLETE', reason: (error as Error).message };
    }
    // Cleanup after a successful update: what the template no longer holds goes, as its DeletionPolicy says.
    for (const [id, old] of before) {
      if (id in template.Resources) continue;
      this.held.delete(id);
      if (old.resource.Type === 'AWS::Lambda::Version' && !RETAINED_AFTER_UPDATE.has(old.resource.DeletionPolicy ?? 'Delete')) {
        this.lambda.deleteVersion(this.functionOfVersion(old), Number(old.physical));
      }
    }
    this.deployed = true;
    return { status: creating ? 'CREATE_COMPLETE' : 'UPDATE_COMPLETE' };
  }

  /** Back to `before`: functions' configurations restored, and what the update created deleted unless its policy is Retain. */
  private rollBack(before: Map<string, Held>, created: string[], changedFunctions: [string, string][]): void {
    for (const [name, config] of changedFunctions) this.lambda.update(name, config);
    for (const id of created) {
      const held = this.held.get(id);
      if (held?.resource.Type === 'AWS::Lambda::Version' && held.resource.DeletionPolicy !== 'Retain') {
        this.lambda.deleteVersion(this.functionOfVersion(held), Number(held.physical));
      }
    }
    this.held = before;
  }

  private functionName(fnId: string): string {
    const fn = this.held.get(fnId);
    if (!fn) throw new Error(`no function ${fnId} in the stack`);
    return fn.physical;
  }

  private functionOfVersion(version: Held): string {
    return this.functionName(refOf(version.resource.Properties?.FunctionName));
  }
}
