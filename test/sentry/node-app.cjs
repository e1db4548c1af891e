// A customer's Node backend using the unmodified official @sentry/node, pointed at this service by its DSN
// (SENTRY_DSN). It reports what test/sentry/sentry-sdks.test.ts counts: 3 × a card error thrown in chargeCard
// (different amounts in the message, and a cause: Sentry's Dedupe integration drops an event whose first exception
// value repeats the previous one, so the causes differ too), 2 × a lookup error thrown in loadUser, then flushes and exits.
const Sentry = require('@sentry/node');

Sentry.init({ dsn: process.env.SENTRY_DSN, release: 'billing@1.4.2', environment: 'test', tracesSampleRate: 0 });

function chargeCard(amount) {
  throw new Error(`card declined for ${amount} EUR`, { cause: new TypeError(`gateway answered 402 for ${amount}`) });
}
function loadUser(id) {
  throw new RangeError(`no user ${id}`);
}

async function main() {
  for (const amount of [17, 230, 5]) {
    try {
      chargeCard(amount);
    } catch (error) {
      Sentry.withScope((scope) => {
        scope.setUser({ id: '42', email: 'ada@example.com', username: 'ada', ip_address: '10.1.2.3' });
        scope.setTag('plan', 'pro');
        Sentry.captureException(error);
      });
    }
  }
  for (const id of [1, 2]) {
    try {
      loadUser(id);
    } catch (error) {
      Sentry.captureException(error);
    }
  }
  const flushed = await Sentry.flush(10000);
  await Sentry.close(2000);
  process.exit(flushed ? 0 : 3);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
