// Issue 19 §1: hostile redirect targets. Every value in HOSTILE_REDIRECTS must be refused by the
// redirect guard (safeRedirect → the fallback); used by the guard's unit test (node tier) and by the
// route matrix in workerd (tests/integration/redirect-guard.test.ts). Each value is what the
// route receives after the form or query string is decoded.

const EVIL = 'evil.example'

/** Every C0 control character and DEL, raw and percent-encoded, between two slashes. */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, i) => i), 0x7f]
const controlValues = CONTROLS.flatMap((code) => {
  const hex = code.toString(16).padStart(2, '0')
  return [`/${String.fromCharCode(code)}/${EVIL}`, `/%${hex}/${EVIL}`, `/%${hex.toUpperCase()}/${EVIL}/x`]
})

const named: string[] = [
  // Protocol-relative and backslash forms.
  `//${EVIL}`,
  `///${EVIL}`,
  `////${EVIL}/path`,
  `/\\${EVIL}`,
  `/\\/${EVIL}`,
  `\\\\${EVIL}`,
  `\\/${EVIL}`,
  `/home\\..\\\\${EVIL}`,
  `/%5c${EVIL}`,
  `/%5C/${EVIL}`,
  `/%5c%5c${EVIL}`,
  `/%255c/${EVIL}`,
  // Encoded slashes: a second leading slash once something decodes the value.
  `/%2f/${EVIL}`,
  `/%2F${EVIL}`,
  `/%2f%2f${EVIL}`,
  `%2f%2f${EVIL}`,
  `/%252f/${EVIL}`,
  `/%252F%252F${EVIL}`,
  // Dot segments that the URL parser collapses into "//".
  `/..//${EVIL}`,
  `/.//${EVIL}`,
  `/a/..//${EVIL}`,
  `/%2e%2e//${EVIL}`,
  `/./%2f/${EVIL}`,
  // Tabs, newlines, NUL: raw, single- and double-encoded, header injection.
  `/\t/${EVIL}`,
  `/\t\t/${EVIL}`,
  `\t//${EVIL}`,
  `/%09/${EVIL}/phish`,
  `/%2509/${EVIL}`,
  `/\r\n/${EVIL}`,
  `/%0d%0a/${EVIL}`,
  `/%0D%0ALocation:%20https://${EVIL}`,
  `/x\r\nSet-Cookie: session=attacker`,
  `/x%0d%0aSet-Cookie:%20session=attacker`,
  `/x%250d%250aSet-Cookie:x`,
  `/x\u0000`,
  `/%00`,
  `/home%00.${EVIL}`,
  // Whitespace.
  ` /home`,
  `/home `,
  `/ho me`,
  `/%20/${EVIL}`,
  `/+%20//${EVIL}`,
  // Absolute URLs, mixed-case schemes, scheme tricks.
  `https://${EVIL}`,
  `http://${EVIL}`,
  `HTTPS://${EVIL}`,
  `HtTpS://${EVIL}/`,
  `https:${EVIL}`,
  `https:/${EVIL}`,
  `https:\\\\${EVIL}`,
  `https:`,
  `http:/localhost@${EVIL}`,
  `ftp://${EVIL}`,
  `file:///etc/passwd`,
  `javascript:alert(1)`,
  `JAVASCRIPT:alert(1)`,
  `JaVaScRiPt:alert(document.domain)`,
  ` javascript:alert(1)`,
  `java\tscript:alert(1)`,
  `javascript://%0aalert(1)`,
  `javascript:`,
  `data:text/html,<script>alert(1)</script>`,
  `vbscript:msgbox(1)`,
  // Not a path at all.
  `@${EVIL}`,
  `${EVIL}`,
  `.${EVIL}`,
  `${EVIL}/path`,
  `?next=//${EVIL}`,
  `#//${EVIL}`,
  '',
  ' ',
  // Unicode look-alikes and invisible characters, raw and encoded.
  `／／${EVIL}`,
  `/／${EVIL}`,
  `\u2215\u2215${EVIL}`,
  `/\u2215${EVIL}`,
  `/\u2044${EVIL}`,
  `/\u29f8${EVIL}`,
  `/\uff3c${EVIL}`,
  `/\ufe68${EVIL}`,
  `ｈｔｔｐｓ://${EVIL}`,
  `/evil\u3002example`,
  `/%E2%88%95${EVIL}`,
  `/%EF%BC%8F${EVIL}`,
  `/%EF%BC%BC${EVIL}`,
  `/%25E2%2588%2595${EVIL}`,
  `/\u200b/${EVIL}`,
  `/\u202e/${EVIL}`,
  `/\u00a0/${EVIL}`,
  `/\u3000/${EVIL}`,
  `/\u2028/${EVIL}`,
  `/\ufeff/${EVIL}`,
  `/\u0085/${EVIL}`,
  `/%C2%A0/${EVIL}`,
  `/%C2%85/${EVIL}`,
  `/%E2%80%8B/${EVIL}`,
  `/%E2%80%AE/${EVIL}`,
  // Over-long.
  `/${'a'.repeat(500)}`,
  `/${'a'.repeat(5000)}`,
  `/%2f${'a'.repeat(20000)}`,
]

export const HOSTILE_REDIRECTS: string[] = [...named, ...controlValues]

/** Same-origin paths the guard keeps (as the parsed URL serialises them). */
export const SAFE_REDIRECTS: Array<[input: string, target: string]> = [
  ['/panel', '/panel'],
  ['/panel?x=1', '/panel?x=1'],
  ['/javascript-foundations/watch#course-review', '/javascript-foundations/watch#course-review'],
  ['/search?q=%C5%81%C3%B3d%C5%BA', '/search?q=%C5%81%C3%B3d%C5%BA'],
  ['/a/b?c=d&e=f+g', '/a/b?c=d&e=f+g'],
  ['/?q=100%25', '/?q=100%25'],
  ['/a/./b/../c', '/a/c'],
  ['/@evil.example', '/@evil.example'],
]
