/*
 * Debug ids (docs/source-maps.md#debug-ids-in-the-browser): `sourcemaps inject` puts a line at the top of each
 * built script that records its own stack under its debug id in `_contactsDebugIds`
 * (lambda/ingest/sourcemaps/debug-id-snippet.ts). The top frame of each recorded stack is the script's URL as this
 * browser loaded it, so the ids of the scripts in an error's stack are found by URL, whatever the file was
 * renamed to or served from.
 */

/** What is already read of the registry: stack text → script URL. */
const urls: Record<string, string | undefined> = {};

/** Script URL → debug id of the scripts named in `stack`, or undefined when none is registered. */
export function debugIdsOf(
  stack: string | undefined,
  registry = (globalThis as { _contactsDebugIds?: Record<string, string> })._contactsDebugIds,
): Record<string, string> | undefined {
  if (!registry || !stack) return undefined;
  let ids: Record<string, string> | undefined;
  for (const key in registry) {
    const url = (urls[key] ??= /([a-z][\w+.-]*:\/\/[^\s()@]+?)(?::\d+){2}/i.exec(key)?.[1]);
    if (url && stack.includes(url)) (ids ??= {})[url] = registry[key] as string;
  }
  return ids;
}
