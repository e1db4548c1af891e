/**
 * Key management: npm run --silent keys -- <command> [options]
 *
 *   create --factory fac_… [--rate-limit N]                      a secret key (dfsk_…)
 *   create --factory fac_… --type publishable --origin URL … [--servers]
 *                                                                a publishable key (dfpk_…) and its Sentry DSN
 *   list   --factory fac_…                                       the factory's keys, never secrets
 *   revoke <keyId>                                               from now on the key gives 401
 *
 * With no flags it works on the same store as `npm start`; add
 * --stack <name> [--region <region>] for a deployed stack.
 */
import { KEY_ID_PATTERN } from '../../../lambda/kernel/api-key';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../../../lambda/kernel/limits';
import { DEFAULT_PUBLISHABLE_RATE_LIMIT } from '../../../lambda/kernel/limits';
import { KeyAdmin } from '../../../lambda/infrastructure/store/keys/key-admin';
import { COMMON_OPTIONS, factoryIdArg, parseCommandLine, printJson, runCommand, UsageError } from '../../harness/cli';
import { dsnFor } from '../../../lambda/ingest/sentry/dsn';
import { keyArgs } from '../key-args';
import { DEFAULT_API_PORT } from '../../harness/paths';
import { SetupError } from '../../harness/setup-error';
import { connectStore, type StoreConnection } from '../../harness/store';

const USAGE = `usage: npm run --silent keys -- <command> [options]

  create --factory <fac_id> [--rate-limit <requests per minute>]   issue a secret key (dfsk_…)
  create --factory <fac_id> --type publishable --origin <origin> [--origin <origin> …] [--servers]
                                                                   issue a publishable key (dfpk_…); the JSON also
                                                                   carries dsn, for Sentry SDKs (docs/sentry-sdks.md);
                                                                   --servers: requests without an Origin (a customer's
                                                                   servers) may report with it too
  list --factory <fac_id>                                          list a factory's keys (never the secrets): type,
                                                                   origins, status, and for a secret key seen at the
                                                                   ingest API its exposed record (rotate it)
  revoke <keyId>                                                   revoke a key: it gives 401 from then on

options for every command:
  --stack <name> [--region <region>]   work on a deployed stack's tables instead of the local store

Without --rate-limit a secret key gets ${DEFAULT_RATE_LIMIT_PER_MINUTE} requests per minute, or with --stack
the stack's defaultRateLimit (its DefaultRateLimit output); a publishable key ${DEFAULT_PUBLISHABLE_RATE_LIMIT}.

An origin is scheme://host[:port] (http or https, no path): https://app.example.com,
http://localhost:5173, or https://*.example.com for every subdomain of example.com (not
example.com itself). At most 50; * and null are refused.`;

/** Where a DSN points when no running server or stack says: npm start's default port. */
const DEFAULT_LOCAL_API = `http://localhost:${process.env.PORT ?? DEFAULT_API_PORT}`;

async function main(argv: string[]) {
  const parsed = parseCommandLine(argv, {
    factory: { type: 'string' },
    type: { type: 'string' },
    origin: { type: 'string', multiple: true },
    'rate-limit': { type: 'string' },
    servers: { type: 'boolean' },
    ...COMMON_OPTIONS,
  });
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (!command) throw new UsageError('a command is required: create, list or revoke');

  // Check every argument before touching the store.
  let run: (admin: KeyAdmin, store: StoreConnection) => Promise<void>;
  switch (command) {
    case 'create': {
      const factoryId = factoryIdArg(values.factory);
      const { type, origins, rateLimit, servers } = keyArgs(values);
      if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
      // Otherwise a secret key gets the deployed stack's default (locally KeyAdmin's); a publishable key KeyAdmin's.
      run = async (admin, store) => {
        const created = await admin.create({
          factoryId,
          type,
          rateLimit: rateLimit ?? (type === 'secret' ? store.defaultRateLimit : undefined),
          origins,
          servers,
        });
        printJson(type === 'publishable' ? { ...created, dsn: dsnFor(store.apiUrl ?? DEFAULT_LOCAL_API, created.key, created.keyId) } : created);
      };
      break;
    }
    case 'list': {
      const factoryId = factoryIdArg(values.factory);
      if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
      run = async (admin) => printJson(await admin.list(factoryId));
      break;
    }
    case 'revoke': {
      const [keyId, extra] = rest;
      if (!keyId) throw new UsageError('revoke needs the key id: keys -- revoke key_…');
      if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
      if (!KEY_ID_PATTERN.test(keyId)) {
        throw new UsageError(`"${keyId}" is not a key id (key_ + 16 hex characters); find it with keys -- list --factory fac_…`);
      }
      run = async (admin) => {
        const revoked = await admin.revoke(keyId);
        if (!revoked) throw new SetupError(`no key with id ${keyId}: list a factory's keys with keys -- list --factory fac_…`);
        printJson(revoked);
      };
      break;
    }
    default:
      throw new UsageError(`unknown command "${command}": use create, list or revoke`);
  }

  const store = await connectStore({ stack: values.stack, region: values.region });
  try {
    await run(new KeyAdmin(store.doc, store.tables.keys), store);
  } finally {
    await store.close();
  }
}

runCommand(USAGE, main);
