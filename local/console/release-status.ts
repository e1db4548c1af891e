/**
 * What runs where on a deployed stack (docs/deploying.md#what-runs-where):
 * for each released function, the version its `live` alias sends traffic
 * to (and, during a canary, the version taking the rest), the commit each
 * was built from (read from its description: lib/release-commit.ts), and
 * whether that agrees with what the stack last deployed ($LATEST). Pure: the
 * status command reads Lambda and CloudFormation and hands the answers here.
 */
import { commitOfDescription } from '../../lib/release-commit';

/** One version as Lambda describes it. */
export interface VersionFacts {
  description?: string;
  lastModified?: string;
}

/** What Lambda answers about one released function. */
export interface FunctionFacts {
  /** The short name (`api`, `tally`, …) its deployment alarms carry. */
  function: string;
  name: string;
  /** The `live` alias: its primary version and the weights of any other (a canary in progress). */
  liveVersion: string;
  weights: Record<string, number>;
  /** Each version the alias names, by number. */
  versions: Record<string, VersionFacts>;
  /** $LATEST: the code and configuration the stack last deployed. */
  latest: VersionFacts;
}

export interface RunningVersion {
  version: string;
  /** Of the function's invocations: 1 when it takes them all. */
  weight: number;
  commit: string | null;
  published: string | null;
}

export interface FunctionStatus {
  function: string;
  name: string;
  running: RunningVersion[];
  /** The commit the stack last deployed to this function. */
  deployed: string | null;
  /** Every running version was built from the deployed commit, and no canary is under way. */
  settled: boolean;
}

export interface StackStatus {
  stack: string;
  status: string;
  /** The one commit every function runs, when they all run the same and are settled; null otherwise. */
  commit: string | null;
  functions: FunctionStatus[];
  /** Functions the stack names no output for (deployed before it had them): what to do. */
  missing: string[];
  /** What an operator should know: a canary under way, an alias moved by hand, functions on different commits. */
  notes: string[];
}

const round = (weight: number) => Math.round(weight * 1000) / 1000;

export function functionStatus(facts: FunctionFacts): FunctionStatus {
  const others = Object.entries(facts.weights).filter(([version]) => version !== facts.liveVersion);
  const canaryShare = others.reduce((sum, [, weight]) => sum + weight, 0);
  const running: RunningVersion[] = [facts.liveVersion, ...others.map(([version]) => version)].map((version) => ({
    version,
    weight: round(version === facts.liveVersion ? 1 - canaryShare : (facts.weights[version] ?? 0)),
    commit: commitOfDescription(facts.versions[version]?.description) ?? null,
    published: facts.versions[version]?.lastModified ?? null,
  }));
  const deployed = commitOfDescription(facts.latest.description) ?? null;
  return {
    function: facts.function,
    name: facts.name,
    running,
    deployed,
    settled: others.length === 0 && running.every((version) => version.commit === deployed),
  };
}

/** The whole stack's status, with the notes an operator acts on. */
export function stackStatus(stack: string, status: string, facts: FunctionFacts[], missing: string[]): StackStatus {
  const functions = facts.map(functionStatus);
  const notes: string[] = [];
  for (const fn of functions) {
    const [live, ...canaries] = fn.running;
    for (const canary of canaries) {
      notes.push(
        `${fn.function}: a release is under way: version ${canary.version} (commit ${canary.commit}) takes ${Math.round(canary.weight * 100)} % beside version ${live?.version}`,
      );
    }
    if (canaries.length === 0 && live && live.commit !== fn.deployed) {
      notes.push(
        `${fn.function}: live runs version ${live.version} (commit ${live.commit}) while the stack last deployed commit ${fn.deployed}: the alias was moved by hand; deploy commit ${live.commit} to make the stack agree (docs/runbook.md#going-back-to-an-earlier-version)`,
      );
    }
  }
  const commits = new Set(functions.flatMap((fn) => fn.running.map((version) => version.commit)));
  if (commits.size > 1) notes.push(`the functions run ${commits.size} different commits`);
  if (missing.length > 0) notes.push(`no output names ${missing.join(', ')}: the stack was deployed before it had them; deploy this version to see them`);
  const settled = functions.length > 0 && functions.every((fn) => fn.settled) && commits.size === 1 && missing.length === 0;
  return { stack, status, commit: settled ? ([...commits][0] ?? null) : null, functions, missing, notes };
}
