// loadBlockContext (issue 6): what block renderers get besides their props. Products come only
// from this school's published catalogue; Bunny players only for this school's playable videos,
// signed by the real media worker (auxiliary).
import type { AppLoadContext } from '@remix-run/cloudflare'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createCatalogueProduct, createProduct } from '#app/models/product.server.ts'
import { applyVideoState, insertVideo } from '#app/models/video.server.ts'
import { loadBlockContext } from '#app/storefront/block-context.server.ts'
import { parseBlockProps, type BlockType, type ParsedBlock } from '#app/domain/blocks.ts'
import { SiteCache } from '#app/domains/site.server.ts'
import { createTestSchool, createTestStudent, db, type TestSchool } from '#tests/factories.ts'

function appContext(school: TestSchool): AppLoadContext {
  return {
    cloudflare: { env, ctx: { waitUntil() {}, passThroughOnException() {} } },
    db: db(),
    site: { kind: 'school', hostname: school.host, via: 'subdomain', tenant: { id: school.tenantId, slug: school.slug, name: 'School', status: 'active', language: 'en', currency: 'USD', avatarPath: null, coverPath: null }, primaryHostname: null },
    siteCache: new SiteCache(),
    nonce: 'nonce',
    memo: new Map(),
  } as unknown as AppLoadContext
}

function block(id: string, type: BlockType, props: unknown): ParsedBlock {
  const parsed = parseBlockProps(type, props)
  if (!parsed.success) throw new Error(`bad props for ${type}: ${JSON.stringify(parsed.error.issues)}`)
  return { id, type, props: parsed.data } as ParsedBlock
}

async function playableVideo(tenantId: string, title: string) {
  const video = await insertVideo(db(), tenantId, { libraryId: '4242', bunnyVideoId: crypto.randomUUID(), title, originalFilename: `${title}.mp4`, size: 1000 })
  await applyVideoState(db(), tenantId, video.id, { state: 'playable' })
  return video
}

let school: TestSchool
let other: TestSchool
let published: { id: string; slug: string }
let unpublishedId: string
let otherProductId: string
let ownVideo: string
let pendingVideo: string
let otherVideo: string

beforeAll(async () => {
  school = await createTestSchool()
  other = await createTestSchool()
  const course = await createCatalogueProduct(db(), school.tenantId, { kind: 'course', title: 'Watercolour basics', description: 'Paint with **water**.', published: true }, [{ name: '', amount: 4900 }])
  published = { id: course!.id, slug: course!.slug }
  unpublishedId = (await createProduct(db(), school.tenantId, { kind: 'course', title: 'Draft course' })).id
  const foreign = await createCatalogueProduct(db(), other.tenantId, { kind: 'course', title: 'Foreign course', published: true }, [{ name: '', amount: 1000 }])
  otherProductId = foreign!.id
  ownVideo = (await playableVideo(school.tenantId, 'intro')).id
  pendingVideo = (await insertVideo(db(), school.tenantId, { libraryId: '4242', bunnyVideoId: crypto.randomUUID(), title: 'pending', originalFilename: 'p.mp4', size: 10 })).id
  otherVideo = (await playableVideo(other.tenantId, 'theirs')).id
})

describe('loadBlockContext', () => {
  it('describes the page without touching products or videos when no block needs them', async () => {
    const request = new Request(`http://${school.host}/p/offer?x=1`)
    const context = await loadBlockContext(request, appContext(school), school.tenantId, [block('h1', 'hero', { heading: 'Hi' })], { subpageId: 'sp1', viewerId: null })
    expect(context.products).toEqual({})
    expect(context.bunnyEmbeds).toEqual({})
    expect(context.pagePath).toBe('/p/offer')
    expect(context.subpageId).toBe('sp1')
    expect(context.signedIn).toBe(false)
    expect(context.preview).toBe(false)
    expect(context.mediaOrigin).toMatch(/^https?:\/\//)
  })

  it("offers this school's published products only: drafts and another school's ids are left out", async () => {
    const blocks = [
      block('card-1', 'product_card', { productId: published.id }),
      block('card-2', 'product_card', { productId: unpublishedId }),
      block('card-3', 'product_card', { productId: otherProductId }),
      block('reviews-1', 'reviews', { productId: published.id }),
    ]
    const context = await loadBlockContext(new Request(`http://${school.host}/p/offer`), appContext(school), school.tenantId, blocks, { subpageId: 'sp1', viewerId: null })
    expect(Object.keys(context.products)).toEqual([published.id])
    const offer = context.products[published.id]
    expect(offer).toMatchObject({ title: 'Watercolour basics', slug: published.slug, currency: 'USD', price: 4900, hasAccess: false })
    expect(offer.actionHref).toBe(`/${published.slug}/checkout`)
  })

  it('marks a signed-in viewer and the editor preview', async () => {
    const student = await createTestStudent(school.tenantId)
    const context = await loadBlockContext(new Request(`http://${school.host}/home/subpages/sp1/blocks`), appContext(school), school.tenantId, [block('card-1', 'product_card', { productId: published.id })], { subpageId: 'sp1', viewerId: student.id, preview: true })
    expect(context.signedIn).toBe(true)
    expect(context.preview).toBe(true)
    expect(context.products[published.id]?.hasAccess).toBe(false)
  })

  it("signs Bunny players for this school's playable videos only", async () => {
    const blocks = [
      block('v-own', 'video_embed', { provider: 'bunny', videoId: ownVideo }),
      block('v-pending', 'video_embed', { provider: 'bunny', videoId: pendingVideo }),
      block('v-foreign', 'video_embed', { provider: 'bunny', videoId: otherVideo }),
      block('v-missing', 'video_embed', { provider: 'bunny', videoId: 'no-such-video' }),
      block('v-youtube', 'video_embed', { provider: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ' }),
    ]
    const context = await loadBlockContext(new Request(`http://${school.host}/p/offer`), appContext(school), school.tenantId, blocks, { subpageId: 'sp1', viewerId: null })
    expect(Object.keys(context.bunnyEmbeds).sort()).toEqual(['v-foreign', 'v-missing', 'v-own', 'v-pending'])
    expect(context.bunnyEmbeds['v-own']).toMatch(/^https?:\/\/.+\/embed\/.+token=/)
    expect(context.bunnyEmbeds['v-pending']).toBeNull()
    expect(context.bunnyEmbeds['v-foreign']).toBeNull()
    expect(context.bunnyEmbeds['v-missing']).toBeNull()
  })
})
