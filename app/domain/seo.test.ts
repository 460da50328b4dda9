import { describe, expect, it } from 'vitest'
import { excerpt, pageCacheControl, pick, robotsTxt, seoMeta, sitemapXml, xmlEscape } from './seo.ts'

describe('excerpt', () => {
  it('turns markdown into plain text, links into their text', () => {
    expect(excerpt('# Title\n\nLearn **Git** in [one day](https://x.test) and `commit` often.\n\n- one\n- two')).toBe('Title Learn Git in one day and commit often. one two')
    expect(excerpt('<script>alert(1)</script>Hi')).toBe('alert(1) Hi')
  })

  it('cuts long text on a word with an ellipsis, within the limit', () => {
    const long = 'word '.repeat(100)
    const out = excerpt(long, 50)
    expect(out.length).toBeLessThanOrEqual(50)
    expect(out.endsWith('word…')).toBe(true)
  })
})

describe('pick', () => {
  it('prefers the SEO field, falls back when blank', () => {
    expect(pick('  SEO title ', 'Title')).toBe('SEO title')
    expect(pick('   ', 'Title')).toBe('Title')
    expect(pick(null, 'Title')).toBe('Title')
  })
})

describe('seoMeta', () => {
  it('has title, description, canonical and Open Graph tags', () => {
    const tags = seoMeta({ title: 'T', description: 'D', url: 'https://school.test/x', image: 'https://media.test/c.png', type: 'product', siteName: 'S', locale: 'pl' })
    expect(tags).toContainEqual({ title: 'T' })
    expect(tags).toContainEqual({ name: 'description', content: 'D' })
    expect(tags).toContainEqual({ tagName: 'link', rel: 'canonical', href: 'https://school.test/x' })
    expect(tags).toContainEqual({ property: 'og:image', content: 'https://media.test/c.png' })
    expect(tags).toContainEqual({ property: 'og:type', content: 'product' })
    expect(tags).toContainEqual({ property: 'og:locale', content: 'pl_PL' })
    const noImage = seoMeta({ title: 'T', description: 'D', url: 'u', image: null, type: 'website', siteName: 'S', locale: 'en' })
    expect(noImage.some((t) => 'property' in t && t.property === 'og:image')).toBe(false)
  })
})

describe('pageCacheControl', () => {
  const now = 1_000_000
  it('never lets a shared cache keep a signed-in page', () => {
    expect(pageCacheControl({ signedIn: true, now, changesAt: [now + 1000] })).toBe('private, no-store')
  })
  it('keeps anonymous pages at the edge for 300 s, less when the page changes sooner', () => {
    expect(pageCacheControl({ signedIn: false, now })).toBe('public, max-age=0, s-maxage=300')
    expect(pageCacheControl({ signedIn: false, now, changesAt: [now + 60_500, null, now - 5] })).toBe('public, max-age=0, s-maxage=61')
    expect(pageCacheControl({ signedIn: false, now, changesAt: [now + 10] })).toBe('public, max-age=0, s-maxage=1')
    expect(pageCacheControl({ signedIn: false, now, changesAt: [now + 3_600_000] })).toBe('public, max-age=0, s-maxage=300')
  })
})

describe('sitemap and robots', () => {
  it('lists absolute escaped URLs with dates', () => {
    const xml = sitemapXml('https://kurs.example.test', [
      { path: '/', lastmod: null },
      { path: '/a&b', lastmod: Date.UTC(2026, 0, 2) },
    ])
    expect(xml).toContain('<loc>https://kurs.example.test/</loc>')
    expect(xml).toContain('<url><loc>https://kurs.example.test/a&amp;b</loc><lastmod>2026-01-02</lastmod></url>')
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)
    expect(xmlEscape(`<"'>`)).toBe('&lt;&quot;&apos;&gt;')
  })
  it('allows the storefront, keeps panels out, names the sitemap', () => {
    const txt = robotsTxt('https://kurs.example.test')
    expect(txt).toContain('Allow: /\n')
    for (const p of ['/home', '/panel', '/login']) expect(txt).toContain(`Disallow: ${p}\n`)
    expect(txt).toContain('Sitemap: https://kurs.example.test/sitemap.xml')
  })
})
