// YouTube and Vimeo links as player URLs (sales-page video blocks, lectures with an external video,
// community posts). Kept apart from the block schemas so a page that only needs this does not ship
// zod and the markdown sanitizer to the browser.

/** The player URL for a YouTube or Vimeo link (privacy-enhanced YouTube host), or null if it is not one. */
export function videoEmbedUrl(provider: 'youtube' | 'vimeo', url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null
  const host = parsed.hostname.replace(/^www\.|^m\./, '')
  if (provider === 'youtube') {
    let id: string | null = null
    if (host === 'youtu.be') id = parsed.pathname.slice(1)
    else if (host === 'youtube.com' || host === 'youtube-nocookie.com') id = parsed.searchParams.get('v') ?? /^\/(?:embed|shorts|live)\/([^/]+)/.exec(parsed.pathname)?.[1] ?? null
    return id && /^[A-Za-z0-9_-]{6,20}$/.test(id) ? `https://www.youtube-nocookie.com/embed/${id}` : null
  }
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const id = /^\/(?:video\/)?(\d{3,12})(?:\/|$)/.exec(parsed.pathname)?.[1]
    return id ? `https://player.vimeo.com/video/${id}` : null
  }
  return null
}
