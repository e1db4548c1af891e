/**
 * The shape of a factory id (a tenant): `fac_` and 1 to 64 letters, digits,
 * `_` or `-`. Operators name factories when they issue keys; every command,
 * operation and page that takes one checks it with this pattern.
 */
// The dash escaped: the pattern also goes into an HTML `pattern` attribute, which browsers read with the `v` flag.
export const FACTORY_ID_PATTERN = /^fac_[A-Za-z0-9_-]{1,64}$/;
