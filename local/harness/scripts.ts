import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './paths';

/** How package.json runs one of the project's TypeScript commands: node's options (its loader), then the file. */
export interface ScriptCommand {
  /** What goes between `node` and the file: `--require tsx/cjs` for the commands, `--import tsx` for the builds. */
  nodeOptions: string[];
  /** The file's absolute path. */
  entry: string;
}

/** `node <options…> <file>.ts` as package.json writes a script that runs a file of the project. */
const NODE_FILE = /^node((?: --?[\w-]+(?:[ =][\w/.-]+)?)*) (\S+\.ts)\b/;

/**
 * The node options and the file of the package script `name`, read from package.json, so that whatever starts a
 * command as a process (a test, a benchmark, the load tool) starts it as `npm run` does and follows a script that moves.
 */
export function scriptCommand(name: string): ScriptCommand {
  const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const match = NODE_FILE.exec(scripts[name] ?? '');
  if (!match) throw new Error(`package.json runs no TypeScript file of the project for "${name}"`);
  return { nodeOptions: (match[1] as string).trim().split(' ').filter(Boolean), entry: join(PROJECT_ROOT, match[2] as string) };
}
