/** Test files from parts: strings (UTF-8), byte arrays or Uint8Arrays, concatenated. */
export function bytes(...parts: (string | number[] | Uint8Array)[]) {
  const chunks = parts.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : p instanceof Uint8Array ? p : Uint8Array.from(p)))
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}
