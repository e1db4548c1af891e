/**
 * The platform's own name, shown as `enrichment.provider` on every enriched
 * contact (docs/control-room.md#enrichment): one constant, never the name of a data source. The stack
 * sets it from `-c platformName=…`; locally PLATFORM_NAME overrides it.
 */
export const DEFAULT_PLATFORM_NAME = 'platform';

export function platformName(env: NodeJS.ProcessEnv = process.env): string {
  return env.PLATFORM_NAME || DEFAULT_PLATFORM_NAME;
}
