import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { commandLine, NODE, ROOT } from '../support/commands';
import { scriptCommand } from '../../local/harness/scripts';
import { atLeast, missingPrerequisites, report, type Machine } from '../support/prerequisites';

/** `npm test`'s first step: it says what is missing, and the line that fixes it, before anything starts. */
const CHECK = join(ROOT, 'test', 'support', 'prerequisites.ts');

/** The check as `npm test` runs it, with the PATH given (node itself by its absolute path). */
function runCheck(path: string) {
  return spawnSync(NODE, [...scriptCommand('test').nodeOptions, CHECK], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PATH: path } });
}

const ready: Machine = { nodeVersion: '20.19.0', engines: '>=20.19', javaMajor: 17, missingPrograms: [] };

describe('npm test prerequisites', () => {
  test("are the first thing the test script runs: without java its first step stops with the check's answer alone, having started nothing", () => {
    expect(scriptCommand('test').entry).toBe(join(ROOT, 'test/support/npm-test.ts'));
    const [node, ...rest] = commandLine('test') as [string, ...string[]];
    const nodeDir = dirname(node);
    const result = spawnSync(node, rest, {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PATH: nodeDir === '/usr/bin' ? '/nonexistent' : nodeDir },
    });
    // No type check, no synth and no jest ran: each prints a line on stdout (or tsc its errors).
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 1, stdout: '' });
    expect(result.stderr).toBe(
      'npm test needs Java 17 or newer for DynamoDB Local, and "java" was not found on PATH.\n  run: apt-get install -y openjdk-17-jre-headless\n',
    );
  });

  test('without java on PATH, the check stops with exit code 1, the problem and the apt-get line, and nothing else', () => {
    // PATH with nothing on it, or only node's folder when that is not /usr/bin (where java lives too).
    const nodeDir = dirname(NODE);
    const result = runCheck(nodeDir === '/usr/bin' ? '/nonexistent' : nodeDir);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'npm test needs Java 17 or newer for DynamoDB Local, and "java" was not found on PATH.\n  run: apt-get install -y openjdk-17-jre-headless\n',
    );
  });

  test('on this machine (java, the browsers and node present: the suite runs here) the check passes silently', () => {
    const result = runCheck(process.env.PATH ?? '');
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  test('a machine with everything has nothing missing', () => {
    expect(missingPrerequisites(ready)).toEqual([]);
  });

  test('an old Java is named with its version', () => {
    expect(report(missingPrerequisites({ ...ready, javaMajor: 11 }))).toBe(
      'npm test needs Java 17 or newer for DynamoDB Local, and "java" on PATH is Java 11.\n  run: apt-get install -y openjdk-17-jre-headless\n',
    );
  });

  test('a missing Chromium names the path the browser tests use and the package that provides it', () => {
    expect(missingPrerequisites({ ...ready, missingPrograms: ['/usr/bin/chromium'] })).toEqual([
      {
        problem: 'npm test drives Chromium, Firefox ESR and WebKitGTK for the browser tests, and Chromium (/usr/bin/chromium) is missing.',
        fix: 'apt-get install -y chromium',
      },
    ]);
  });

  test("missing Firefox ESR, WebKitGTK's driver and Xvfb are named together, with one line that installs their Debian packages", () => {
    expect(report(missingPrerequisites({ ...ready, missingPrograms: ['/usr/bin/firefox-esr', '/usr/bin/WebKitWebDriver', '/usr/bin/Xvfb'] }))).toBe(
      "npm test drives Chromium, Firefox ESR and WebKitGTK for the browser tests, and Firefox ESR (/usr/bin/firefox-esr), WebKitGTK's WebDriver (/usr/bin/WebKitWebDriver), Xvfb (/usr/bin/Xvfb) are missing.\n" +
        '  run: apt-get install -y firefox-esr webkit2gtk-driver xvfb\n',
    );
  });

  test("a Node.js older than package.json's engines is refused, a newer one accepted", () => {
    expect(missingPrerequisites({ ...ready, nodeVersion: '20.18.3' })).toEqual([
      expect.objectContaining({ problem: 'npm test needs Node.js 20.19 or newer (package.json "engines"), and this is Node.js 20.18.3.' }),
    ]);
    expect(missingPrerequisites({ ...ready, nodeVersion: '22.1.0' })).toEqual([]);
    expect([atLeast('20.19.0', '20.19'), atLeast('20.9.9', '20.19'), atLeast('v21.0.0', '20.19')]).toEqual([true, false, true]);
  });

  test('every missing piece is listed, in the order the suite would trip on it', () => {
    const missing = missingPrerequisites({
      nodeVersion: '18.0.0',
      engines: '>=20.19',
      javaMajor: undefined,
      missingPrograms: ['/usr/bin/chromium', '/usr/bin/Xvfb'],
    });
    expect(missing.map((item) => item.fix)).toEqual([
      expect.stringMatching(/^nvm install 20/),
      'apt-get install -y openjdk-17-jre-headless',
      'apt-get install -y chromium xvfb',
    ]);
  });
});
