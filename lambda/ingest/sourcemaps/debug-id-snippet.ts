/**
 * The line `sourcemaps inject` puts at the top of each built script (docs/source-maps.md#debug-ids-in-the-browser):
 * when the script runs, it records its own stack under its debug id in a global registry. The browser SDK
 * (browser-sdk/src/debug-ids.ts) reads that registry when it reports an error: each recorded stack names the
 * URL the script was loaded from, which is how the SDK learns which debug id each script URL in an error's
 * stack carries, whatever the deployed file name, host or query.
 *
 * The same entry goes into `_sentryDebugIds`, the registry of the same shape that Sentry's browser SDKs read (since
 * 7.47) to send `debug_meta` images: a page reporting with @sentry/browser to this service's Sentry endpoint gets its
 * frames resolved by the same injection (docs/sentry-sdks.md#source-maps).
 *
 * One line, so it shifts the script's lines by one and nothing else (the map's mappings are shifted by one `;`
 * when it is injected); wrapped in try so it can never break the page; it sets nothing but the two registries.
 */

/** The global the snippet fills and the SDK reads: stack text → debug id. */
export const DEBUG_ID_REGISTRY = '_contactsDebugIds';

/** Sentry's global of the same shape, filled alongside. */
export const SENTRY_DEBUG_ID_REGISTRY = '_sentryDebugIds';

/** The snippet for one debug id (a lowercase UUID, checked by the caller). */
export function debugIdSnippet(id: string): string {
  const record = (registry: string) => `(g.${registry}=g.${registry}||{})[s]="${id}"`;
  return (
    `;!function(){try{var g=typeof window<"u"?window:typeof globalThis<"u"?globalThis:typeof self<"u"?self:{},` +
    `s=new g.Error().stack;s&&(${record(DEBUG_ID_REGISTRY)},${record(SENTRY_DEBUG_ID_REGISTRY)})}catch(e){}}();`
  );
}
