import { ArnFormat, Duration, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import type { LambdaApplication } from 'aws-cdk-lib/aws-codedeploy';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';

export interface HookFailuresProps {
  application: LambdaApplication;
  logRetention: RetentionDays;
  logRemovalPolicy: RemovalPolicy;
}

/**
 * Where a deployment hook that fails before it reports is handed
 * (docs/deploying.md#a-hook-that-cannot-run): CodeDeploy invokes hooks
 * asynchronously and would otherwise wait an hour for the report. This small
 * function is every hook's on-failure destination: it reports Failed for the
 * lifecycle event of the failed invocation, so the release rolls back at
 * once, and the `release-hook-failed` alarm pages on-call. It may only report
 * to the stack's own deployment groups. Not released gradually: it is part
 * of the release machinery itself, as the hooks are.
 */
export class HookFailures extends Construct {
  readonly handler: ServiceFunction;

  constructor(scope: Construct, id: string, props: HookFailuresProps) {
    super(scope, id);
    this.handler = new ServiceFunction(this, 'Handler', {
      description: 'Deployment hook failures: reports Failed to CodeDeploy for a pre- or post-traffic hook that failed before it reported',
      entry: 'infrastructure/deploy/hook-failure-entry.ts',
      timeout: Duration.seconds(30),
      memorySize: 128,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
      environment: { LOG_LEVEL: 'INFO' },
    });
    const stack = Stack.of(this);
    const groups = stack.formatArn({
      service: 'codedeploy',
      resource: 'deploymentgroup',
      resourceName: `${props.application.applicationName}/*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.handler.addToRolePolicy(new PolicyStatement({ actions: ['codedeploy:PutLifecycleEventHookExecutionStatus'], resources: [groups] }));
    const policy = this.handler.role?.node.tryFindChild('DefaultPolicy');
    if (policy) {
      NagSuppressions.addResourceSuppressions(policy, [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "It reports for whichever function's hook failed: every deployment group of this stack's own CodeDeploy application (deploymentgroup:<application>/*), and nothing else.",
          appliesTo: [{ regex: '/^Resource::arn:<AWS::Partition>:codedeploy:.*:deploymentgroup:<.*>\\/\\*$/g' }],
        },
      ]);
    }
  }
}
