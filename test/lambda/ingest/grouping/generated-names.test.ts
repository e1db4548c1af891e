import { withoutGeneratedParts } from '../../../../lambda/ingest/grouping/generated-names';

/** What a code generator makes up in a Java class name per build or JVM is left out of the grouping; the rest is kept (lambda/ingest/grouping/generated-names.ts). */
describe('a frame module without its generated parts', () => {
  test.each([
    [
      'invalid.gruml.talkytalkyhub.common.config.JipJipConfig$$EnhancerBySpringCGLIB$$1ebdddb0',
      'invalid.gruml.talkytalkyhub.common.config.JipJipConfig$$EnhancerBySpringCGLIB$$',
    ],
    ['com.example.api.OutboundController$$EnhancerByGuice$$ae46b1bf', 'com.example.api.OutboundController$$EnhancerByGuice$$'],
    ['com.example.api.OutboundController$EnhancerByGuice$ae46b1bf', 'com.example.api.OutboundController$EnhancerByGuice$'],
    ['com.example.Billing$$FastClassBySpringCGLIB$$9f2c1d3e', 'com.example.Billing$$FastClassBySpringCGLIB$$'],
    ['com.example.Billing$$SpringCGLIB$$0', 'com.example.Billing$$SpringCGLIB$$'],
    ['com.example.api.entry.EntriesResource_$$_javassist_seam_74', 'com.example.api.entry.EntriesResource_$$_javassist'],
    ['com.example.model.Order$HibernateProxy$tG3aQk2x', 'com.example.model.Order$HibernateProxy$'],
    ['com.example.Main$$Lambda$14/0x0000000800c03000', 'com.example.Main$$Lambda'],
    ['com.example.Main$$Lambda$14/1639705018', 'com.example.Main$$Lambda'],
    ['myapp.core$fn__4711', 'myapp.core$fn__'],
  ])('%s → %s', (module, kept) => {
    expect(withoutGeneratedParts(module)).toBe(kept);
  });

  test('a class without generated parts, an inner class, a Go package and a Python module are kept as they are', () => {
    for (const module of [
      'io.sentry.example.ApiRequest',
      'org.apache.tomcat.util.net.NioEndpoint$SocketProcessor',
      'com.example.Cart$1',
      'example.com/billing/payments',
      'github.com/robfig/cron/v3',
      'app.views',
    ]) {
      expect(withoutGeneratedParts(module)).toBe(module);
    }
  });
});
