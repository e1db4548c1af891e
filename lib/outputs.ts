/**
 * Names of the stack outputs. The operator commands (keys, enrich) read the
 * table names from them, so this file stays free of CDK imports.
 */
export const OUTPUTS = {
  apiUrl: 'ApiUrl',
  contactsTable: 'ContactsTableName',
  keysTable: 'KeysTableName',
  referenceTable: 'ReferenceTableName',
  enrichmentFunction: 'EnrichmentFunctionName',
  platformName: 'PlatformName',
} as const;
