import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAPI_DOCUMENT_PATH, REDOCLY_CONFIG_PATH } from '../../openapi/paths';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** Redocly CLI (pinned in package.json) on the committed document, offline: telemetry and update checks off. */
function lint() {
  const run = spawnSync(process.execPath, [CLI, 'lint', '--config', REDOCLY_CONFIG_PATH, '--format', 'json', OPENAPI_DOCUMENT_PATH], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { status: run.status, report: JSON.parse(run.stdout) as { totals: Record<string, number>; problems: unknown[] } };
}

describe('the OpenAPI lint', () => {
  test('Redocly finds no error, no warning and nothing ignored in the committed document', () => {
    const { status, report } = lint();
    expect(report.problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(status).toBe(0);
  }, 60_000);

  test('the lint configuration turns telemetry off', () => {
    expect(readFileSync(REDOCLY_CONFIG_PATH, 'utf8')).toMatch(/^telemetry: off$/m);
  });
});
