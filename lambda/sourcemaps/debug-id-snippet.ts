/**
 * The line `sourcemaps inject` puts at the top of each built script (docs/source-maps.md#debug-ids-in-the-browser):
 * when the script runs, it records its own stack under its debug id in a global registry. The browser SDK
 * (browser-sdk/src/debug-ids.ts) reads that registry when it reports an error: each recorded stack names the
 * URL the script was loaded from, which is how the SDK learns which debug id each script URL in an error's
 * stack carries, whatever the deployed file name, host or query.
 *
 * One line, so it shifts the script's lines by one and nothing else (the map's mappings are shifted by one `;`
 * when it is injected); wrapped in try so it can never break the page; it sets nothing but the registry.
 */

/** The global the snippet fills and the SDK reads: stack text → debug id. */
export const DEBUG_ID_REGISTRY = '_contactsDebugIds';

/** The snippet for one debug id (a lowercase UUID, checked by the caller). */
export function debugIdSnippet(id: string): string {
  return (
    `;!function(){try{var g=typeof window<"u"?window:typeof globalThis<"u"?globalThis:typeof self<"u"?self:{},` +
    `s=new g.Error().stack;s&&((g.${DEBUG_ID_REGISTRY}=g.${DEBUG_ID_REGISTRY}||{})[s]="${id}")}catch(e){}}();`
  );
}
