/**
 * The commit each release is built from, written into the description of
 * every released function, so that each published version names it
 * (Lambda copies a function's description into the version it publishes)
 * and `npm run status` can say which commit runs where
 * (docs/deploying.md#what-runs-where). Free of CDK imports: the status
 * command reads descriptions back with the same rule.
 */

/** What a synth outside a git checkout records. */
export const UNKNOWN_COMMIT = 'unknown';

/** A full commit hash, `-dirty` when the working tree had changes the commit does not hold. */
const COMMIT = /^[0-9a-f]{40}(-dirty)?$/;

/** Lambda's limit on a function's description. */
export const DESCRIPTION_MAX = 256;

const SUFFIX = /\s\(commit ([0-9a-f]{40}(?:-dirty)?|unknown)\)$/;

/** A released function's description: what it is, then the commit it was built from. */
export function describedRelease(description: string, commit: string): string {
  if (commit !== UNKNOWN_COMMIT && !COMMIT.test(commit)) throw new Error(`"${commit}" is not a commit: expected 40 hex digits, optionally -dirty`);
  const described = `${description} (commit ${commit})`;
  if (described.length > DESCRIPTION_MAX) {
    throw new Error(
      `the description of "${description.slice(0, 40)}…" with its commit is ${described.length} characters, past Lambda's ${DESCRIPTION_MAX}: shorten it`,
    );
  }
  return described;
}

/** The commit a description names (as describedRelease wrote it), or undefined when it names none. */
export function commitOfDescription(description: string | undefined): string | undefined {
  return description?.match(SUFFIX)?.[1];
}
