import { randomUUID } from 'node:crypto';
import type { connectControl } from '../../local/console/control/client';

type Client = Awaited<ReturnType<typeof connectControl>>;

/**
 * Issue 51's "done when" for the screenshots (docs/report-issues.md#who-is-affected): three contacts at two
 * companies, created through the contacts API with their company's domain, and one anonymous visitor hit the same
 * bug. Answers a wait for the tally's next pass as `settle`; returns the issue's id.
 */
export async function seedAffectedDemo(apiUrl: string, client: Client, factoryId: string, settle: () => Promise<void>): Promise<string> {
  const origin = 'https://app.example.com';
  const secret = await client.call({ operation: 'keys.create', factoryId, type: 'secret' });
  const publishable = await client.call({ operation: 'keys.create', factoryId, type: 'publishable', origins: [origin] });
  const people = [
    ['margaret.hamilton@apollo.example', 'apollo.example'],
    ['katherine.johnson@apollo.example', 'apollo.example'],
    ['dennis.ritchie@bell-labs.example', 'bell-labs.example'],
  ];
  for (const [email, companyDomain] of people) {
    const created = await fetch(`${apiUrl}/api/v1/contacts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${String(secret.key)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, companyDomain }),
    });
    if (created.status >= 300) throw new Error(`seeding an affected contact: ${created.status}`);
  }
  const message = 'TypeError: Cannot read properties of undefined (reading "lineItems")';
  const headers = { Authorization: `Bearer ${String(publishable.key)}`, Origin: origin, 'Content-Type': 'application/json' };
  const reporters = [...people.map(([email]) => ({ email })), undefined, people[0] && { email: people[0][0] }];
  for (const reporter of reporters) {
    const sent = await fetch(`${apiUrl}/ingest/v1/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        events: [{ eventId: randomUUID(), type: 'error', message, pageUrl: 'https://app.example.com/checkout', ...(reporter ? { reporter } : {}) }],
      }),
    });
    if (sent.status >= 300) throw new Error(`seeding an affected event: ${sent.status}`);
  }
  await settle();
  const found = await client.call({ operation: 'issues.list', factoryId, search: 'lineItems' });
  const issueId = (found.issues as { issueId: string }[] | undefined)?.[0]?.issueId;
  if (issueId === undefined) throw new Error('the affected demo opened no issue');
  return issueId;
}
