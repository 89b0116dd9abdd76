// Hostile collector bodies for the Monit parser: shapes a scan with quadratic cost would choke on, each
// made of `n` repetitions, and megabytes of noise. test/server/monit/parse-message.test.ts checks what
// the parser answers to them; the parser benchmark (bench/parser.ts) times them.

export const HOSTILE_SHAPES = {
  'unclosed tags': (n: number) => '<monit id="x1"><services>' + '<a'.repeat(n),
  'quotes that never end an attribute': (n: number) => '<monit id="x1"><services><service name="' + '" "a" '.repeat(n),
  'many attributes': (n: number) => '<monit id="x1"' + ' a="1"'.repeat(n) + '><services/></monit>',
  'stray markup in a leaf': (n: number) =>
    '<monit id="x1"><services><service name="s"><pid>' + '<</'.repeat(n) + '</pid></service></services></monit>',
  'deeply nested unknown elements': (n: number) =>
    '<monit id="x1"><services><service name="s"><x>' + '<x>'.repeat(n) + '</x>'.repeat(n + 1) + '</service></services></monit>',
  'deeply nested services': (n: number) => '<monit id="x1"><services>' + '<service name="s">'.repeat(n),
  'close tags without >': (n: number) => '<monit id="x1"><services><service name="s"><x>' + '</x </x'.repeat(n) + '>',
  'entity-like text': (n: number) =>
    '<monit id="x1"><server><localhostname>' + '&#x&#&lt'.repeat(n) + '</localhostname></server><services/></monit>',
  'many CDATA sections': (n: number) =>
    '<monit id="x1"><services><service name="s"><program><output>' +
    '<![CDATA[x]]>'.repeat(n) +
    '</output></program></service></services></monit>'
}

export type HostileShape = keyof typeof HOSTILE_SHAPES

export const NOISE_BYTES = 3 * 2 ** 20

/** NOISE_BYTES of seeded pseudo-random bytes: about one in nine an XML-illegal control character. */
export function randomNoise(): Buffer {
  let seed = 12
  return Buffer.from(Array.from({ length: NOISE_BYTES }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24))
}

/** NOISE_BYTES of spaces: the cheapest body of that size to refuse. */
export const spaces = (): Buffer => Buffer.alloc(NOISE_BYTES, 0x20)
