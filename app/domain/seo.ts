// SEO and edge-cache helpers of the school's public pages (pure: shared by loaders and tests).
// Titles and descriptions fall back from the creator's SEO fields to the title and an excerpt;
// the canonical URL is on the school's primary host; Open Graph tags for link previews.
import type { MetaDescriptor } from '@remix-run/cloudflare'

export const SEO_DESCRIPTION_MAX = 160
/** Seconds an anonymous school page may stay in the edge cache (invalidated by content_version too). */
export const PAGE_S_MAXAGE = 300

export type PageSeo = {
  title: string
  description: string
  /** Absolute canonical URL. */
  url: string
  image: string | null
  type: 'website' | 'article' | 'product'
  siteName: string
  locale: 'en' | 'pl'
}

/** Plain text of a markdown body (no markup, links as their text), cut on a word to `max` characters. */
export function excerpt(markdown: string, max = SEO_DESCRIPTION_MAX) {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`
}

/** The creator's SEO field when set, otherwise the fallback. */
export function pick(seoValue: string | null | undefined, fallback: string) {
  const v = (seoValue ?? '').trim()
  return v || fallback
}

/** `<title>`, description, canonical link and Open Graph tags of a page. */
export function seoMeta(seo: PageSeo): MetaDescriptor[] {
  const tags: MetaDescriptor[] = [
    { title: seo.title },
    { name: 'description', content: seo.description },
    { tagName: 'link', rel: 'canonical', href: seo.url },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: seo.url },
    { property: 'og:type', content: seo.type },
    { property: 'og:site_name', content: seo.siteName },
    { property: 'og:locale', content: seo.locale === 'pl' ? 'pl_PL' : 'en_US' },
    { name: 'twitter:card', content: seo.image ? 'summary_large_image' : 'summary' },
  ]
  if (seo.image) tags.push({ property: 'og:image', content: seo.image })
  return tags
}

/**
 * Cache-Control of a school page: personalised answers (a signed-in viewer) never reach a shared
 * cache; anonymous ones stay at the edge for up to PAGE_S_MAXAGE seconds, less when something on
 * the page changes by itself sooner (a promotion starts or ends, a scheduled article goes live).
 */
export function pageCacheControl(opts: { signedIn: boolean; now: number; changesAt?: Array<number | null | undefined> }) {
  if (opts.signedIn) return 'private, no-store'
  let seconds = PAGE_S_MAXAGE
  for (const at of opts.changesAt ?? []) {
    if (at === null || at === undefined || at <= opts.now) continue
    seconds = Math.min(seconds, Math.max(1, Math.ceil((at - opts.now) / 1000)))
  }
  return `public, max-age=0, s-maxage=${seconds}`
}

/** XML text escaping for sitemap.xml. */
export function xmlEscape(s: string) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

export type SitemapEntry = { path: string; lastmod: number | null }

export function sitemapXml(origin: string, entries: SitemapEntry[]) {
  const urls = entries.map((e) => {
    const loc = `<loc>${xmlEscape(origin + e.path)}</loc>`
    const lastmod = e.lastmod ? `<lastmod>${new Date(e.lastmod).toISOString().slice(0, 10)}</lastmod>` : ''
    return `<url>${loc}${lastmod}</url>`
  })
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

/** Paths that are not public pages of a school (panels, sign-in, endpoints). */
export const ROBOTS_DISALLOW = ['/home', '/panel', '/login', '/logout', '/register', '/forgot-password', '/reset-password', '/invitation', '/auth', '/files', '/set-language', '/search', '/lead', '/json', '/dev', '/*/checkout', '/*/watch']

export function robotsTxt(origin: string) {
  return ['User-agent: *', 'Allow: /', ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`), '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n')
}
