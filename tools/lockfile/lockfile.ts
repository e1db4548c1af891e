/**
 * `npm ci` refuses a lock file that lacks an entry for any optional
 * dependency, including native binaries for other platforms. A registry that
 * does not serve those binaries (as here) leaves them out of the lock that
 * `npm install` writes; these helpers find them and add entries that name
 * their platform, so `npm ci` skips them on this one and resolves them on
 * theirs.
 */
export interface LockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}
export interface Lockfile {
  packages: Record<string, LockEntry>;
  [key: string]: unknown;
}

const OSES = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPUS: [string, string][] = [
  ['arm64', 'arm64'],
  ['x64', 'x64'],
  ['ia32', 'ia32'],
  ['ppc64', 'ppc64'],
  ['s390x', 's390x'],
  ['riscv64', 'riscv64'],
  ['loong64', 'loong64'],
  ['arm', 'arm'],
];

/** The platform a binary package is for, read from its name (`@swc/core-darwin-arm64` → darwin, arm64). */
export function platformOf(name: string): { os: string; cpu: string } | undefined {
  const parts = (name.split('/').pop() ?? '').split('-');
  const os = OSES.find((candidate) => parts.includes(candidate));
  const cpu = CPUS.find(([token]) => parts.includes(token) || parts.some((part) => part === `${token}eabi`))?.[1];
  return os && cpu ? { os, cpu } : undefined;
}

/** Optional dependencies declared in the lock with no entry of their own. */
export function missingOptional(lock: Lockfile): { name: string; version: string; dev: boolean }[] {
  const missing = new Map<string, { name: string; version: string; dev: boolean }>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
      if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue;
      missing.set(name, { name, version, dev: entry.dev === true });
    }
  }
  return [...missing.values()];
}
