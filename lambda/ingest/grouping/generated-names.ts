/**
 * A frame's module (a Java class) without the parts a code generator makes up per build or per JVM: Spring's and
 * Guice's CGLIB proxies (`Config$$EnhancerBySpringCGLIB$$1ebdddb0`), their fast classes, Javassist and Hibernate
 * proxies, lambda classes (`Main$$Lambda$14/0x0000000800c03000`) and Clojure's anonymous functions (`core$fn__4711`).
 * The generator's mark stays, its number goes: the proxied class still tells two bugs apart, and one bug stays one
 * issue whatever name a build gave its proxy. Names without such parts (Go packages, Python modules) are unchanged.
 * Pure.
 */
const GENERATED: readonly [RegExp, string][] = [
  [/(\$\$?(?:EnhancerBy|FastClassBy)\w+?\$?\$)[0-9a-f]+(?:_\d+)?/gi, '$1'],
  [/(\$\$\w+?CGLIB\$\$)[0-9a-f]+(?:_\d+)?/gi, '$1'],
  [/(\$\$_javassist)(?:_seam)?(?:_\d+)?/g, '$1'],
  [/(\$\$?HibernateProxy\$?\$)\w+/g, '$1'],
  [/(\$\$Lambda)\$?\d*(?:\/0x[0-9a-f]+|\/\d+)?/gi, '$1'],
  [/(\$fn__)\d+/g, '$1'],
];

export function withoutGeneratedParts(module: string): string {
  if (!module.includes('$')) return module;
  return GENERATED.reduce((name, [pattern, replacement]) => name.replace(pattern, replacement), module);
}
