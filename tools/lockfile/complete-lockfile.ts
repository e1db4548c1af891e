/**
 * npm run complete-lockfile: run after `npm install` changed package-lock.json.
 * Adds the entries `npm ci` needs for other platforms' native binaries (see
 * tools/lockfile/lockfile.ts). Prints what it added.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingOptional, platformOf, type Lockfile } from './lockfile';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { runMain, SetupError } from '../../local/harness/setup-error';

runMain(async () => {
  const path = join(PROJECT_ROOT, 'package-lock.json');
  const lock = JSON.parse(readFileSync(path, 'utf8')) as Lockfile;
  const added: string[] = [];
  for (const { name, version, dev } of missingOptional(lock)) {
    const platform = platformOf(name);
    if (!platform) throw new SetupError(`cannot tell the platform of ${name}@${version} from its name: add its lock entry by hand`);
    lock.packages[`node_modules/${name}`] = {
      version,
      cpu: [platform.cpu],
      ...(dev ? { dev: true } : {}),
      optional: true,
      os: [platform.os],
    };
    added.push(`${name}@${version}`);
  }
  const [root, ...rest] = Object.entries(lock.packages);
  lock.packages = Object.fromEntries([...(root ? [root] : []), ...rest.sort(([a], [b]) => a.localeCompare(b, 'en'))]);
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  process.stdout.write(added.length > 0 ? `added ${added.length} entries:\n  ${added.join('\n  ')}\n` : 'the lock file is complete\n');
});
