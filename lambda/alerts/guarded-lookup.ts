import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { refusalUnder, type AddressPolicy } from './address-policy';

/** A host name's addresses: the system resolver on AWS, a stub in the tests (never the network there). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** A destination refused for where it leads: said in the delivery log, never retried into the network. */
export class RefusedDestinationError extends Error {
  override readonly name = 'RefusedDestinationError';
}

/**
 * The host's addresses, every one allowed by the policy: one forbidden
 * address refuses the host, since a socket may pick any of them.
 */
export async function allowedAddresses(hostname: string, resolve: Resolve, policy: AddressPolicy): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(hostname);
  } catch (error) {
    throw new RefusedDestinationError(
      `${hostname} does not resolve (${error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error)})`,
    );
  }
  if (addresses.length === 0) throw new RefusedDestinationError(`${hostname} does not resolve to any address`);
  for (const { address } of addresses) {
    const refusal = refusalUnder(address, policy);
    if (refusal)
      throw new RefusedDestinationError(
        `${hostname} resolves to ${address}, a ${refusal.kind} address (${refusal.range}): webhooks go to public addresses only`,
      );
  }
  return addresses;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` a socket uses to connect (http.request's option): it
 * resolves the name itself and hands the socket only addresses the policy
 * allows. The check before sending resolved the name too, but a DNS answer
 * can change between that check and the connection (DNS rebinding): this
 * is the answer the socket really connects to, so it is checked here again.
 */
export function guardedLookup(resolve: Resolve, policy: AddressPolicy) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions | number | undefined, callback: LookupCallback): void => {
    const wantsAll = typeof options === 'object' && options !== null && options.all === true;
    const family = typeof options === 'number' ? options : typeof options === 'object' && options !== null ? options.family : undefined;
    allowedAddresses(hostname, resolve, policy).then(
      (addresses) => {
        const usable = family === 4 || family === 6 ? addresses.filter((entry) => entry.family === family) : addresses;
        const [first] = usable;
        if (!first) {
          callback(Object.assign(new Error(`${hostname} has no IPv${String(family)} address`), { code: 'ENOTFOUND' }), wantsAll ? [] : '', undefined);
          return;
        }
        if (wantsAll) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'EREFUSEDDESTINATION' }), wantsAll ? [] : '', undefined),
    );
  };
}
