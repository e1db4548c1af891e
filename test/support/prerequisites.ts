/**
 * What `npm test` needs before it starts, checked in its first second:
 * Node.js as package.json's `engines` asks, Java 17+ for DynamoDB Local, and
 * the three browser engines the browser tests drive (tools/browsers/engines.ts),
 * each from a Debian package. Without this a missing piece shows
 * up minutes later as failing tests. Run first by the `test` script; prints
 * one problem and the one line that fixes it per missing piece, exit code 1.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BROWSER_PROGRAMS } from '../../tools/browsers/programs';

export { CHROMIUM } from '../../tools/browsers/programs';
export const MIN_JAVA = 17;

export interface Missing {
  problem: string;
  /** The one command that fixes it. */
  fix: string;
}

export interface Machine {
  /** `process.versions.node`. */
  nodeVersion: string;
  /** package.json's `engines.node`, `>=X.Y[.Z]`. */
  engines: string;
  /** The major version of `java` on PATH; undefined when there is none. */
  javaMajor: number | undefined;
  /** The files of BROWSER_PROGRAMS that cannot be run here. */
  missingPrograms: string[];
}

const parts = (version: string) =>
  version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);

/** True when `version` is at least `minimum` (both dotted, missing parts 0). */
export function atLeast(version: string, minimum: string): boolean {
  const [have, want] = [parts(version), parts(minimum)];
  for (let i = 0; i < Math.max(have.length, want.length); i += 1) {
    const difference = (have[i] ?? 0) - (want[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return true;
}

/** What is missing on this machine, in the order the suite would trip on it. Pure. */
export function missingPrerequisites(machine: Machine): Missing[] {
  const missing: Missing[] = [];
  const minimum = /^>=\s*([\d.]+)$/.exec(machine.engines.trim())?.[1];
  if (minimum && !atLeast(machine.nodeVersion, minimum)) {
    const major = minimum.split('.')[0];
    missing.push({
      problem: `npm test needs Node.js ${minimum} or newer (package.json "engines"), and this is Node.js ${machine.nodeVersion}.`,
      fix: `nvm install ${major} && nvm use ${major}   (or your system's Node.js ${major} package)`,
    });
  }
  if (machine.javaMajor === undefined) {
    missing.push({
      problem: `npm test needs Java ${MIN_JAVA} or newer for DynamoDB Local, and "java" was not found on PATH.`,
      fix: 'apt-get install -y openjdk-17-jre-headless',
    });
  } else if (machine.javaMajor < MIN_JAVA) {
    missing.push({
      problem: `npm test needs Java ${MIN_JAVA} or newer for DynamoDB Local, and "java" on PATH is Java ${machine.javaMajor}.`,
      fix: 'apt-get install -y openjdk-17-jre-headless',
    });
  }
  const programs = BROWSER_PROGRAMS.filter((program) => machine.missingPrograms.includes(program.file));
  if (programs.length > 0) {
    missing.push({
      problem: `npm test drives Chromium, Firefox ESR and WebKitGTK for the browser tests, and ${programs.map((program) => `${program.name} (${program.file})`).join(', ')} ${programs.length > 1 ? 'are' : 'is'} missing.`,
      fix: `apt-get install -y ${programs.map((program) => program.pkg).join(' ')}`,
    });
  }
  return missing;
}

/** The major version `java -version` reports (`"17.0.2"` → 17, `"1.8.0"` → 8), or undefined without java. */
export function javaMajorOnPath(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const run = spawnSync('java', ['-version'], { encoding: 'utf8', env, timeout: 20_000 });
  if (run.error) return undefined;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${run.stderr}${run.stdout}`);
  if (!match) return undefined;
  return match[1] === '1' ? Number(match[2]) : Number(match[1]);
}

function runnable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** This machine, as the suite will find it. */
export function thisMachine(root = join(__dirname, '..', '..')): Machine {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  return {
    nodeVersion: process.versions.node,
    engines: pkg.engines?.node ?? '',
    javaMajor: javaMajorOnPath(),
    missingPrograms: BROWSER_PROGRAMS.map((program) => program.file).filter((file) => !runnable(file)),
  };
}

/** The message for what is missing: each problem, then the line to run. */
export function report(missing: Missing[]): string {
  return missing.map(({ problem, fix }) => `${problem}\n  run: ${fix}\n`).join('');
}

if (require.main === module) {
  const missing = missingPrerequisites(thisMachine());
  if (missing.length > 0) {
    process.stderr.write(report(missing));
    process.exit(1);
  }
}
