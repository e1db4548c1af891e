/**
 * Key schema of both tables: the one source for the CDK stack, the local
 * table creation and the code that reads and writes items.
 *
 * contacts table   PK factoryId (S)   SK sk (S)
 *   contact item   sk = contact id        "ct_0123456789abcdef"
 *   company item   sk = "company#" + domain, attributes id = companyId = "co_…"
 *   GSI byCompany  PK companyId, SK sk  (keys only: a company and the contacts linked to it)
 *
 *   usage item     sk = "usage#" + period + "#" + shard ("usage#2026-11#07"): billed enrichment passes
 *   pass item      sk = "pass#" + contact id + "#" + passId: a control-room pass applied (expires)
 *
 * keys table       PK keyHash (S) = sha256 of the secret
 *   GSI byFactory  PK factoryId, SK keyId  (keys only: `keys list`)
 *   GSI byKeyId    PK keyId                (keys only: `keys revoke`)
 *
 * reference table  PK email (S): the vendor dataset enrichment reads
 */
export const CONTACTS_KEY = { partitionKey: 'factoryId', sortKey: 'sk' } as const;
/** Contacts with a company link, and (since they carry `companyId` too) the companies themselves. */
export const CONTACTS_BY_COMPANY = { indexName: 'byCompany', partitionKey: 'companyId', sortKey: 'sk' } as const;
export const KEYS_KEY = { partitionKey: 'keyHash' } as const;
export const KEYS_BY_FACTORY = { indexName: 'byFactory', partitionKey: 'factoryId', sortKey: 'keyId' } as const;
export const KEYS_BY_KEY_ID = { indexName: 'byKeyId', partitionKey: 'keyId' } as const;

export const REFERENCE_KEY = { partitionKey: 'email' } as const;

export const CONTACT_SK_PREFIX = 'ct_';
export const COMPANY_SK_PREFIX = 'company#';
export const USAGE_SK_PREFIX = 'usage#';
export const PASS_SK_PREFIX = 'pass#';
/** Attribute DynamoDB's time to live reads (epoch seconds): only pass items have it. */
export const EXPIRES_AT = 'expiresAt';

export const companySortKey = (domain: string): string => `${COMPANY_SK_PREFIX}${domain}`;
export const usageSortKey = (period: string, shard: string): string => `${USAGE_SK_PREFIX}${period}#${shard}`;
export const passSortKey = (contactId: string, passId: string): string => `${PASS_SK_PREFIX}${contactId}#${passId}`;

export interface TableNames {
  contacts: string;
  keys: string;
  reference: string;
}

/** Names used on one machine (DynamoDB Local) when the environment names none. */
export const LOCAL_TABLE_NAMES: TableNames = {
  contacts: 'contacts',
  keys: 'contacts-keys',
  reference: 'contacts-reference',
};

/** Table names from the environment the stack gives the Lambdas. */
export function tableNamesFromEnv(env: NodeJS.ProcessEnv = process.env): TableNames {
  return {
    contacts: env.CONTACTS_TABLE_NAME || LOCAL_TABLE_NAMES.contacts,
    keys: env.KEYS_TABLE_NAME || LOCAL_TABLE_NAMES.keys,
    reference: env.REFERENCE_TABLE_NAME || LOCAL_TABLE_NAMES.reference,
  };
}
