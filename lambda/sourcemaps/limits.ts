/**
 * The source-map limits (issue 41), one place for the uploader (lambda/store/source-maps, the sourcemaps command)
 * and the resolver (lambda/sourcemaps): a map over MAX_MAP_BYTES is refused at upload and never parsed.
 */

/** A map's largest size at upload: a 20 MB map must work, so 50 MiB leaves room. */
export const MAX_MAP_BYTES = 50 * 1024 * 1024;
