import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingOptional, platformOf, type Lockfile } from '../../tools/lockfile/lockfile';

describe('package-lock.json', () => {
  test('has an entry for every optional dependency, so npm ci accepts it (fix: npm run complete-lockfile)', () => {
    const lock = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package-lock.json'), 'utf8')) as Lockfile;
    expect(missingOptional(lock).map((m) => `${m.name}@${m.version}`)).toEqual([]);
  });

  test('records no registry address (.npmrc: omit-lockfile-registry-resolved)', () => {
    expect(readFileSync(join(__dirname, '..', '..', 'package-lock.json'), 'utf8')).not.toMatch(/"resolved":/);
  });
});

describe('platformOf', () => {
  test.each([
    ['@swc/core-darwin-arm64', { os: 'darwin', cpu: 'arm64' }],
    ['@swc/core-win32-ia32-msvc', { os: 'win32', cpu: 'ia32' }],
    ['@swc/core-linux-arm-gnueabihf', { os: 'linux', cpu: 'arm' }],
    ['@unrs/resolver-binding-android-arm-eabi', { os: 'android', cpu: 'arm' }],
    ['@unrs/resolver-binding-openharmony-arm64', { os: 'openharmony', cpu: 'arm64' }],
    ['@unrs/resolver-binding-linux-loong64-musl', { os: 'linux', cpu: 'loong64' }],
  ])('%s → %j', (name, platform) => {
    expect(platformOf(name)).toEqual(platform);
  });
});
