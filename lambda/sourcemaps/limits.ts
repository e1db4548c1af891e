/** The largest map accepted at upload, in bytes: a 20 MB map (a large app with sourcesContent) fits with room. */
export const MAX_MAP_BYTES = 50 * 1024 * 1024;
