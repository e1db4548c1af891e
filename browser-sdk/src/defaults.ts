import type { Config, InitOptions } from './types.js';

/** The defaults of init()'s options (docs/browser-sdk.md, "Options"). */
export const DEFAULTS = {
  captureUnhandled: true,
  sessions: true,
  sampleRate: 1,
  ignoreErrors: [],
  denyUrls: [],
  dropExtensionErrors: true,
  dedupe: true,
  maxEventsPerPage: 100,
  errorBurst: 10,
  errorRefillMs: 10_000,
  flushDelayMs: 1000,
  maxBatchEvents: 20,
  // Half the browser's 64 KiB keepalive budget: a request in flight leaves room for the last one at page close.
  maxRequestBytes: 32_768,
  maxQueuedEvents: 100,
  maxRetries: 3,
  retryBaseMs: 1000,
  retryMaxMs: 60_000,
} satisfies Omit<Config, 'key' | 'baseUrl' | 'release' | 'environment' | 'tags' | 'reporter' | 'beforeSend'>;

/** The options with defaults filled in; `baseUrl` without its trailing slashes. */
export function configure(options: InitOptions): Config {
  const config: Config = { ...DEFAULTS, ...options };
  for (const name of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
    if (options[name] === undefined) Object.assign(config, { [name]: DEFAULTS[name] });
  }
  config.baseUrl = String(options.baseUrl).replace(/\/+$/, '');
  // The API's own limits: 20 events and 64 KiB per request.
  config.maxBatchEvents = Math.min(20, Math.max(1, config.maxBatchEvents));
  config.maxRequestBytes = Math.min(65_536, config.maxRequestBytes);
  return config;
}
