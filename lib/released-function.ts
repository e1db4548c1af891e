import type { Duration } from 'aws-cdk-lib';
import type { Alias } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { describedRelease } from './release-commit';
import { GradualDeployment, type GradualDeploymentProps, type ReleaseSettings } from './gradual-deployment';
import { ServiceFunction, type ServiceFunctionProps } from './service-function';

export type { ReleaseSettings };

export interface ReleasedFunctionProps {
  settings: ReleaseSettings;
  /** What it is, then what it does: `Contacts tally: counts …`. Its first part names it in its role's and hook's descriptions. */
  description: string;
  /** The entry module, relative to lambda/: `tally/tally-entry.ts`. */
  entry: string;
  timeout: Duration;
  /** MB. */
  memorySize: number;
  /** Its own variables (tables, queues, links); LOG_LEVEL and the Powertools names are added from `settings` and `service`. */
  environment: Record<string, string>;
  /** `POWERTOOLS_SERVICE_NAME`: the `service` of its log lines and metrics (lambda/infrastructure/observability/names.ts). */
  service: string;
  /** How its releases are judged (lib/gradual-deployment.ts). */
  release: Omit<GradualDeploymentProps, 'settings' | 'service'>;
  /** How it is bundled: BUNDLING (lib/service-function.ts) when absent. */
  bundling?: ServiceFunctionProps['bundling'];
  /** The id of its deployment beside the function: `<id>Deployment` when absent. */
  deploymentId?: string;
}

/** A function of the service and what releases it: everything that invokes it invokes `alias`. */
export interface ReleasedFunction {
  handler: ServiceFunction;
  deployment: GradualDeployment;
  alias: Alias;
}

/**
 * A function of this service as every one is made: a ServiceFunction with
 * the stack's log level, log retention and metrics namespace, and its
 * gradual deployment (a version behind `live`, a canary, the version's
 * alarms and a pre-traffic check). The two are made side by side in
 * `scope`, so their construct paths (and logical ids) are those of the
 * constructs they replace.
 *
 *   const tally = releasedFunction(this, 'Handler', { settings, description, entry: 'ingest/tally/tally-entry.ts',
 *     timeout, memorySize: 512, environment: { REPORTS_TABLE_NAME }, service: TALLY_SERVICE_NAME,
 *     deploymentId: 'Deployment', release: { name: 'tally', probes: tallyProbes, p99DurationMs: 10_000 } });
 */
export function releasedFunction(scope: Construct, id: string, props: ReleasedFunctionProps): ReleasedFunction {
  const { settings } = props;
  const handler = new ServiceFunction(scope, id, {
    // The commit in the description: each version names what it was built from, and every commit is a new version.
    description: describedRelease(props.description, settings.commit),
    entry: props.entry,
    timeout: props.timeout,
    memorySize: props.memorySize,
    bundling: props.bundling,
    logRetention: settings.logRetention,
    logRemovalPolicy: settings.logRemovalPolicy,
    environment: {
      ...props.environment,
      LOG_LEVEL: settings.logLevel,
      // The names the alarms and the dashboard read (lambda/infrastructure/observability/names.ts).
      POWERTOOLS_SERVICE_NAME: props.service,
      POWERTOOLS_METRICS_NAMESPACE: settings.metricsNamespace,
    },
  });
  const deployment = new GradualDeployment(scope, props.deploymentId ?? `${id}Deployment`, handler, { ...props.release, settings, service: props.service });
  return { handler, deployment, alias: deployment.alias };
}
