/*
 * Debug ids (docs/source-maps.md#debug-ids-in-the-browser): an injected build puts a line at the top of each script
 * that records its own stack under its debug id in a global registry: `_contactsDebugIds` from `sourcemaps inject`
 * (lambda/ingest/sourcemaps/debug-id-snippet.ts, which fills `_sentryDebugIds` too), `_sentryDebugIds` alone from
 * Sentry's `sentry-cli sourcemaps inject` and bundler plugins. The SDK reads both, so a build resolves whichever tool
 * injected it. The top frame of each recorded stack is the script's URL as this browser loaded it, so the ids of the
 * scripts in an error's stack are found by URL, whatever the file was renamed to or served from.
 */

type Registry = Record<string, string> | undefined;

/** What is already read of the registries: stack text → script URL. */
const urls: Record<string, string | undefined> = {};

/** Script URL → debug id of the scripts named in `stack`, or undefined when none is registered. */
export function debugIdsOf(
  stack: string | undefined,
  registries: Registry[] = [(globalThis as { _contactsDebugIds?: Registry })._contactsDebugIds, (globalThis as { _sentryDebugIds?: Registry })._sentryDebugIds],
): Record<string, string> | undefined {
  if (!stack) return undefined;
  let ids: Record<string, string> | undefined;
  for (const registry of registries) {
    for (const key in registry) {
      const url = (urls[key] ??= /([a-z][\w+.-]*:\/\/[^\s()@]+?)(?::\d+){2}/i.exec(key)?.[1]);
      if (url && stack.includes(url)) (ids ??= {})[url] ??= registry[key] as string;
    }
  }
  return ids;
}
