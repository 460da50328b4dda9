// CSP hash sources for a stored page's own inline scripts (issue 21 §5, ADR 015): a cache hit can
// then be sent as stored, with `script-src 'self' 'sha256-…'`, instead of rewriting a fresh nonce
// into its body. Only scripts that carry the nonce the page was rendered with are hashed — the ones
// our code rendered on purpose. Markup injected into the page (a sanitizer bug) cannot know that
// nonce, so it gets no hash and stays blocked, as it would under the nonce.

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script/gi

/**
 * The base64 SHA-256 of every inline script of `html` rendered with `nonce`, in page order without
 * repeats; null when a nonce cannot be replaced by hashes: a nonce'd script with `src` (a hash
 * matches no external script without an integrity attribute).
 */
export async function inlineScriptHashes(html: string, nonce: string): Promise<string[] | null> {
  const attribute = ` nonce="${nonce}" `
  const sources: string[] = []
  for (const [, attributes, text] of html.matchAll(SCRIPT)) {
    if (!`${attributes.replace(/\s+/g, ' ')} `.includes(attribute)) continue
    if (/\ssrc\s*=/i.test(attributes)) return null
    sources.push(text)
  }
  const hashes = await Promise.all(sources.map(scriptHash))
  return [...new Set(hashes)]
}

/** What a browser hashes: the element's text after HTML's newline normalisation, as UTF-8. */
export async function scriptHash(text: string) {
  const normalised = text.replace(/\r\n?/g, '\n')
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(normalised))
  let binary = ''
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte)
  return btoa(binary)
}
