/**
 * What runs where on a deployed stack: npm run --silent status -- --stack <name> [--region <r>]
 *
 * For each released function, the version its `live` alias serves (and,
 * during a canary, the version beside it, with its share), the commit each
 * was built from, and whether that is what the stack last deployed; then
 * notes for an operator: a release under way, an alias moved by hand,
 * functions on different commits (docs/deploying.md#what-runs-where). Reads
 * with the caller's AWS credentials: cloudformation:DescribeStacks,
 * lambda:GetAlias and lambda:GetFunctionConfiguration. Changes nothing.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAliasCommand, GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { LIVE_ALIAS } from '../../../lib/live-alias';
import { RELEASED_FUNCTION_OUTPUTS } from '../../../lib/outputs';
import { COMMON_OPTIONS, parseCommandLine, printJson, runCommand, UsageError } from '../../harness/cli';
import { SetupError } from '../../harness/setup-error';
import { stackStatus, type FunctionFacts, type VersionFacts } from '../release-status';

const USAGE = `usage: npm run --silent status -- --stack <name> [--region <region>]

Prints, as one JSON object, what each released function of the stack runs:
its live version (and a canary's, with its share), the commit each was
built from, and the commit the stack last deployed; "notes" says what an
operator should know (a release under way, an alias moved by hand).`;

const messageOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

async function describeStack(stack: string, region: string | undefined): Promise<{ status: string; outputs: Record<string, string> }> {
  const cfn = new CloudFormationClient({ region });
  try {
    const found = (await cfn.send(new DescribeStacksCommand({ StackName: stack }))).Stacks?.[0];
    const outputs = Object.fromEntries((found?.Outputs ?? []).flatMap((o) => (o.OutputKey && o.OutputValue ? [[o.OutputKey, o.OutputValue]] : [])));
    return { status: found?.StackStatus ?? 'UNKNOWN', outputs };
  } catch (error) {
    throw new SetupError(
      `could not read stack "${stack}"${region ? ` in ${region}` : ''}: ${messageOf(error)} (check --stack, --region or AWS_REGION, and your AWS credentials)`,
    );
  } finally {
    cfn.destroy();
  }
}

async function factsOf(lambda: LambdaClient, fn: string, name: string): Promise<FunctionFacts> {
  const describe = async (qualifier?: string): Promise<VersionFacts> => {
    const config = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: name, ...(qualifier ? { Qualifier: qualifier } : {}) }));
    return { description: config.Description, lastModified: config.LastModified };
  };
  try {
    const alias = await lambda.send(new GetAliasCommand({ FunctionName: name, Name: LIVE_ALIAS }));
    const liveVersion = alias.FunctionVersion ?? '$LATEST';
    const weights = alias.RoutingConfig?.AdditionalVersionWeights ?? {};
    const numbers = [liveVersion, ...Object.keys(weights)];
    const [latest, ...described] = await Promise.all([describe(), ...numbers.map((version) => describe(version))]);
    return {
      function: fn,
      name,
      liveVersion,
      weights,
      versions: Object.fromEntries(numbers.map((version, i) => [version, described[i] ?? {}])),
      latest: latest ?? {},
    };
  } catch (error) {
    throw new SetupError(`could not read function ${name} (${fn}): ${messageOf(error)}`);
  }
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, COMMON_OPTIONS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (!values.stack) throw new UsageError('--stack <name> is required: the status of a deployed stack (locally, every function is the source itself)');
  const region = values.region;
  const { status, outputs } = await describeStack(values.stack, region);
  const named = Object.entries(RELEASED_FUNCTION_OUTPUTS).filter(([, output]) => outputs[output]);
  const missing = Object.entries(RELEASED_FUNCTION_OUTPUTS)
    .filter(([, output]) => !outputs[output])
    .map(([fn]) => fn);
  if (named.length === 0) throw new SetupError(`stack "${values.stack}" names no released function in its outputs: is it the contacts service stack?`);
  const lambda = new LambdaClient({ region });
  try {
    const facts = await Promise.all(named.map(([fn, output]) => factsOf(lambda, fn, outputs[output] as string)));
    printJson(stackStatus(values.stack, status, facts, missing));
  } finally {
    lambda.destroy();
  }
});
