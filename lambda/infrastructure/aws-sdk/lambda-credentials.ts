import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundle
 * only (an esbuild alias in lib/service-function.ts). On Lambda the function's
 * credentials are always in the environment, so the rest of the default
 * chain (profiles, SSO, STS web identity, process, IMDS, …) and the nested
 * STS/SSO clients it pulls in never run there: leaving them out takes about
 * a third off the bundle. Locally and in tests the real default chain is used.
 */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
