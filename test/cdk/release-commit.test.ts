import { commitOfDescription, DESCRIPTION_MAX, describedRelease, UNKNOWN_COMMIT } from '../../lib/release-commit';
import { sourceCommit } from '../../lib/source-commit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SHA = '0123456789abcdef0123456789abcdef01234567';

test('a released function describes itself, then names its commit; the status command reads the commit back', () => {
  const described = describedRelease('Contacts tally: counts events', SHA);
  expect(described).toBe(`Contacts tally: counts events (commit ${SHA})`);
  expect(commitOfDescription(described)).toBe(SHA);
  expect(commitOfDescription(describedRelease('Contacts tally: counts events', `${SHA}-dirty`))).toBe(`${SHA}-dirty`);
  expect(commitOfDescription(describedRelease('Contacts tally', UNKNOWN_COMMIT))).toBe(UNKNOWN_COMMIT);
});

test('a description naming no commit reads as none', () => {
  expect(commitOfDescription('Contacts tally: counts events')).toBeUndefined();
  expect(commitOfDescription(undefined)).toBeUndefined();
});

test("a commit that is not 40 hex digits, and a description past Lambda's 256 characters, stop the synth", () => {
  expect(() => describedRelease('Contacts tally', 'abc123')).toThrow(/"abc123" is not a commit/);
  expect(() => describedRelease('x'.repeat(DESCRIPTION_MAX - 40), SHA)).toThrow(/past Lambda's 256/);
});

test('outside a git checkout the commit is unknown; in this checkout it is HEAD, 40 hex digits', () => {
  const outside = mkdtempSync(join(tmpdir(), 'no-git-'));
  try {
    expect(sourceCommit(outside)).toBe(UNKNOWN_COMMIT);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
  expect(sourceCommit(join(__dirname, '..', '..'))).toMatch(/^[0-9a-f]{40}(-dirty)?$/);
});
