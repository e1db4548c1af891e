import type { Template } from 'aws-cdk-lib/assertions';
import { ACCOUNT_THROTTLE, API_RESOURCES, PREFIX_RESOURCES, PREFIX_THROTTLE, stageRateCeiling, type ApiName, type Throttle } from '../../lib/route-throttles';
import { resourcesOf, synthStack } from './synth';

/**
 * One API cannot starve the other (docs/deploying.md#one-api-cannot-starve-the-other): each API's routes have
 * their own throttle at the gateway, read from the template, and a model of API Gateway's token buckets (a
 * method's own limit first, then the account's, as AWS documents the order) plays an ingest storm against them.
 */
const STACK = 'TestLimits';

interface MethodSetting {
  ResourcePath: string;
  HttpMethod: string;
  ThrottlingRateLimit: number;
  ThrottlingBurstLimit: number;
  LoggingLevel?: string;
  DataTraceEnabled?: boolean;
}

let template: Template;
let settings: MethodSetting[];
beforeAll(() => {
  ({ template } = synthStack({}, STACK));
  settings = Object.values(resourcesOf(template, 'AWS::ApiGateway::Stage'))[0]!.Properties.MethodSettings as MethodSetting[];
}, 60_000);

/** A method setting's resource as the access log names it: `/~1ingest~1v1~1{proxy+}` → `/ingest/v1/{proxy+}`. */
const resourceOf = (setting: MethodSetting) => (setting.ResourcePath === '/*' ? '*' : setting.ResourcePath.replace(/~1/g, '/').replace(/^\/\//, '/'));

/** The throttle API Gateway applies to a request of `resource`: its own setting, else the stage's default. */
function throttleOf(resource: string): Throttle {
  const own = settings.find((s) => resourceOf(s) === resource) ?? settings.find((s) => resourceOf(s) === '*');
  return { rate: own!.ThrottlingRateLimit, burst: own!.ThrottlingBurstLimit };
}

test("the contacts API's routes have the stage's default throttle (throttleRate 1,000/s, burst 2,000); execution logs are off on every route", () => {
  expect(settings.find((s) => s.ResourcePath === '/*')).toMatchObject({ HttpMethod: '*', ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 });
  for (const resource of API_RESOURCES.contacts) expect(throttleOf(resource)).toEqual({ rate: 1000, burst: 2000 });
  for (const setting of settings) expect(setting).toMatchObject({ LoggingLevel: 'OFF', DataTraceEnabled: false });
});

test.each([
  ['ingest', { rate: 500, burst: 1000 }],
  ['sourcemaps', { rate: 20, burst: 40 }],
] as const)('the %s API has a throttle of its own on each of its routes, for every method', (api, throttle) => {
  for (const resource of API_RESOURCES[api]) {
    expect(settings.filter((s) => resourceOf(s) === resource).map((s) => s.HttpMethod)).toEqual(['*']);
    expect(throttleOf(resource)).toEqual(throttle);
  }
});

test('the prefixes the public routes hang from (404s of the contacts function) get a small throttle of their own', () => {
  expect(PREFIX_RESOURCES.sort()).toEqual(['/ingest', '/ingest/sentry', '/ingest/v1', '/sourcemaps', '/sourcemaps/v1']);
  for (const resource of PREFIX_RESOURCES) expect(throttleOf(resource)).toEqual(PREFIX_THROTTLE);
});

test("every route's limit together stays under the account's default API Gateway limit, so no route's traffic can take another's share of it", () => {
  const routes = Object.fromEntries(settings.filter((s) => s.ResourcePath !== '/*').map((s) => [resourceOf(s), throttleOf(resourceOf(s))]));
  const ceiling = stageRateCeiling(throttleOf('/{proxy+}'), routes);
  expect(ceiling).toBe(2 * 1000 + 2 * 500 + 20 + 5 * 10);
  expect(ceiling).toBeLessThan(ACCOUNT_THROTTLE.rate);
});

test("the options set each API's throttle: ingestThrottleRate/Burst and sourceMapsThrottleRate/Burst", () => {
  const { template: custom } = synthStack(
    { ingestThrottleRate: 50, ingestThrottleBurst: 100, sourceMapsThrottleRate: 2, sourceMapsThrottleBurst: 5 },
    'TestLimits2',
  );
  const custom_ = Object.values(resourcesOf(custom, 'AWS::ApiGateway::Stage'))[0]!.Properties.MethodSettings as MethodSetting[];
  const of = (resource: string) => custom_.find((s) => resourceOf(s) === resource);
  expect(of('/ingest/v1/{proxy+}')).toMatchObject({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
  expect(of('/ingest/sentry/{proxy+}')).toMatchObject({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
  expect(of('/sourcemaps/v1/{proxy+}')).toMatchObject({ ThrottlingRateLimit: 2, ThrottlingBurstLimit: 5 });
}, 60_000);

/** A token bucket: `rate` tokens a second up to `burst`, one per request admitted. */
class Bucket {
  private tokens: number;
  constructor(private readonly limit: Throttle) {
    this.tokens = limit.burst;
  }
  refill(seconds: number): void {
    this.tokens = Math.min(this.limit.burst, this.tokens + this.limit.rate * seconds);
  }
  take(): boolean {
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * API Gateway as AWS documents its order: a request first meets its method's own bucket, then the account's shared
 * one; refused by either, it is a 429. Plays `seconds` of traffic, in 10 ms steps, at the given rates per resource.
 */
function play(rates: Record<string, number>, seconds: number): Record<string, { sent: number; admitted: number }> {
  const methods = new Map(Object.keys(rates).map((resource) => [resource, new Bucket(throttleOf(resource))]));
  const account = new Bucket(ACCOUNT_THROTTLE);
  const counts = Object.fromEntries(Object.keys(rates).map((resource) => [resource, { sent: 0, admitted: 0 }]));
  const step = 0.01;
  const owed = Object.fromEntries(Object.keys(rates).map((resource) => [resource, 0]));
  for (let t = 0; t < seconds; t += step) {
    account.refill(step);
    for (const bucket of methods.values()) bucket.refill(step);
    for (const [resource, rate] of Object.entries(rates)) {
      owed[resource] = (owed[resource] ?? 0) + rate * step;
      for (; (owed[resource] ?? 0) >= 1; owed[resource] = (owed[resource] ?? 0) - 1) {
        const count = counts[resource]!;
        count.sent += 1;
        if (methods.get(resource)!.take() && account.take()) count.admitted += 1;
      }
    }
  }
  return counts;
}

test("an ingest storm at ten times its limit, on both its routes, leaves the contacts API's answers unchanged: every contacts request is admitted", () => {
  const ingestLimit = throttleOf(API_RESOURCES.ingest[0]).rate;
  const rates: Record<string, number> = { '/{proxy+}': 800, [API_RESOURCES.ingest[0]]: 10 * ingestLimit, [API_RESOURCES.ingest[1]]: 10 * ingestLimit };
  const quiet = play({ '/{proxy+}': 800 }, 30);
  const storm = play(rates, 30);
  expect(storm['/{proxy+}']).toEqual(quiet['/{proxy+}']);
  expect(storm['/{proxy+}']!.admitted).toBe(storm['/{proxy+}']!.sent);
  // The storm itself is held near its own limit (plus the first burst): about nine requests in ten refused.
  const ingest = storm[API_RESOURCES.ingest[0]]!;
  expect(ingest.admitted).toBeLessThanOrEqual(ingestLimit * 30 + throttleOf(API_RESOURCES.ingest[0]).burst);
  expect(ingest.admitted / ingest.sent).toBeLessThan(0.12);
});

test('the control: with one stage-wide bucket for every route (what the issue feared), the same storm refuses contacts requests', () => {
  const shared = new Bucket({ rate: 1000, burst: 2000 });
  let contacts = 0;
  let admitted = 0;
  const step = 0.01;
  for (let t = 0; t < 30; t += step) {
    shared.refill(step);
    // Per 10 ms: 100 ingest requests arrive before the 8 contacts requests of the same instant.
    for (let i = 0; i < 100; i++) shared.take();
    for (let i = 0; i < 8; i++) {
      contacts += 1;
      if (shared.take()) admitted += 1;
    }
  }
  expect(admitted).toBeLessThan(contacts / 2);
});

test.each(Object.keys(API_RESOURCES) as ApiName[])("the %s API's gateway 429s are counted from the access log, by resource, and alarmed apart", (api) => {
  const [filter] = Object.values(resourcesOf(template, 'AWS::Logs::MetricFilter'));
  expect(filter!.Properties).toMatchObject({
    FilterPattern: '{ $.responseType = "THROTTLED" }',
    MetricTransformations: [
      { MetricName: 'GatewayThrottled', MetricNamespace: `ContactsService/${STACK}`, Dimensions: [{ Key: 'resource', Value: '$.resourcePath' }] },
    ],
  });
  const slug = { contacts: 'api-gateway-429', ingest: 'ingest-gateway-429', sourcemaps: 'sourcemaps-gateway-429' }[api];
  const [alarm] = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm', { AlarmName: `${STACK}-${slug}` }));
  const metrics = alarm!.Properties.Metrics as { MetricStat?: { Metric: { MetricName: string; Dimensions: { Value: string }[] } } }[];
  const resources = metrics.flatMap((m) => (m.MetricStat?.Metric.MetricName === 'GatewayThrottled' ? [m.MetricStat.Metric.Dimensions[0]!.Value] : []));
  expect(resources.sort()).toEqual([...API_RESOURCES[api]].sort());
});
