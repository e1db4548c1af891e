import { spawnSync } from 'node:child_process';
import { UNKNOWN_COMMIT } from './release-commit';

/**
 * The commit the app is synthesized from: HEAD of the git checkout at
 * `root`, marked `-dirty` when tracked files differ from it (what is
 * deployed then is not exactly that commit), or `unknown` outside a
 * checkout. Read by bin/contacts.ts at every synth, offline.
 */
export function sourceCommit(root: string): string {
  const git = (...args: string[]) => spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  const head = git('rev-parse', '--verify', 'HEAD');
  if (head.status !== 0) return UNKNOWN_COMMIT;
  const dirty = git('status', '--porcelain', '--untracked-files=no');
  return `${head.stdout.trim()}${dirty.status === 0 && dirty.stdout.trim() !== '' ? '-dirty' : ''}`;
}
