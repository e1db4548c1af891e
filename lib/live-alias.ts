/** The alias every caller (API Gateway, a function URL, an event source mapping) invokes; CDK-free, so the status command reads it too. */
export const LIVE_ALIAS = 'live';
