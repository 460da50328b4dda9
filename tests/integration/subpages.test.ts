// The sales-page editor (issue 6 §2): subpages list/create/settings/delete and blocks add, update,
// delete, reorder, each validated with the block type's zod schema on the server: refusals write
// nothing. Cross-school probes: cross-tenant/subpages.ts.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { insertPendingMediaObject, markMediaObjectReady } from '#app/models/media.server.ts'
import { createBlock } from '#app/models/block.server.ts'
import { createCatalogueProduct, createProduct, saveCatalogue } from '#app/models/product.server.ts'
import { createSubpage } from '#app/models/subpage.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool, d1ForTable } from '#tests/factories.ts'

const location = (res: Response) => res.headers.get('Location') ?? ''

let school: TestSchool
let owner: string
let student: string

async function count(table: 'subpages' | 'blocks', tenantId = school.tenantId) {
  return (await d1ForTable(table).prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`).bind(tenantId).first<{ n: number }>())!.n
}
async function blockRows(subpageId: string) {
  return (
    await env.DB_SHARD_0.prepare('SELECT id, type, props, position FROM blocks WHERE subpage_id = ? ORDER BY position').bind(subpageId).all<{ id: string; type: string; props: string; position: number }>()
  ).results
}
async function readyImage(tenantId: string) {
  const key = `tenants/${tenantId}/image/${crypto.randomUUID()}.png`
  await insertPendingMediaObject(db(), tenantId, {
    key,
    context: 'image',
    kind: 'png',
    originalFilename: 'x.png',
    contentType: 'image/png',
    size: 10,
  })
  await markMediaObjectReady(db(), tenantId, key, {
    contentType: 'image/png',
    size: 10,
    kind: 'png',
  })
  return key
}
/** The owner's cookie with the flash the last newSubpage() left, as the browser follows its redirect. */
let createdCookie = ''
async function newSubpage(title: string, slug = '') {
  const res = await appFetch(school.host, '/home/subpages', {
    form: { title, slug },
    cookie: owner,
  })
  expect(res.status, await res.clone().text()).toBe(302)
  const id = /\/home\/subpages\/([^/]+)\/blocks$/.exec(location(res))?.[1]
  expect(id).toBeTruthy()
  expect(flashOf(res)).toMatchObject({ done: 'created' })
  createdCookie = followFlash(owner, res)
  return id!
}

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const s = await createTestStudent(school.tenantId)
  student = await login(school.host, s.email, s.password)
})

describe('/home/subpages', () => {
  it('is for owners and admins: students 404, visitors go to /login, nothing written for them', async () => {
    const page = await appFetch(school.host, '/home/subpages', {
      cookie: owner,
    })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('No sales pages yet')
    expect(html).toMatch(/href="\/home\/subpages"[^>]*>Sales pages</)
    expect((await appFetch(school.host, '/home/subpages', { cookie: student })).status).toBe(404)
    const anonymous = await appFetch(school.host, '/home/subpages')
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toBe(`/login?redirectTo=${encodeURIComponent('/home/subpages')}`)
    expect(
      (
        await appFetch(school.host, '/home/subpages', {
          form: { title: 'By a student', slug: '' },
          cookie: student,
        })
      ).status
    ).toBe(404)
    expect(await count('subpages')).toBe(0)

    const id = await newSubpage('Student probe page')
    for (const path of [`/home/subpages/${id}`, `/home/subpages/${id}/blocks`]) expect((await appFetch(school.host, path, { cookie: student })).status).toBe(404)
    expect(
      (
        await appFetch(school.host, `/home/subpages/${id}/blocks`, {
          form: { type: 'hero' },
          cookie: student,
        })
      ).status
    ).toBe(404)
    expect(
      (
        await appFetch(school.host, `/home/subpages/${id}`, {
          form: { intent: 'delete', confirm: 'DELETE' },
          cookie: student,
        })
      ).status
    ).toBe(404)
    expect(await count('blocks')).toBe(0)
    expect(await count('subpages')).toBe(1)
  })

  it('creates a page with a slug made from the title, refuses a taken or malformed one', async () => {
    const id = await newSubpage('Wiosenna promocja: Łódź 2026!')
    const row = await env.DB_SHARD_0.prepare('SELECT slug, published FROM subpages WHERE id = ?').bind(id).first<{ slug: string; published: number }>()
    expect(row).toEqual({ slug: 'wiosenna-promocja-lodz-2026', published: 0 })
    const editor = await appFetch(school.host, `/home/subpages/${id}/blocks`, { cookie: createdCookie })
    expect(editor.status).toBe(200)
    const html = await editor.text()
    expect(html).toContain('Created')
    expect(html).toContain('href="/p/wiosenna-promocja-lodz-2026"')
    expect(html).toContain('View page')

    const before = await count('subpages')
    const taken = await appFetch(school.host, '/home/subpages', {
      form: { title: 'Another', slug: 'wiosenna-promocja-lodz-2026' },
      cookie: owner,
    })
    expect(taken.status).toBe(422)
    expect(await taken.text()).toContain('This address is already taken')
    const bad = await appFetch(school.host, '/home/subpages', {
      form: { title: 'Another', slug: 'Not A Slug' },
      cookie: owner,
    })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('Use lowercase letters, digits and single dashes')
    const blank = await appFetch(school.host, '/home/subpages', {
      form: { title: '   ', slug: '' },
      cookie: owner,
    })
    expect(blank.status).toBe(400)
    expect(await count('subpages')).toBe(before)
  })

  it('saves the settings (Changes saved), refuses a slug of another page, deletes after DELETE with the blocks', async () => {
    const a = await newSubpage('Page A', 'page-a')
    await newSubpage('Page B', 'page-b')
    const form = {
      intent: 'save',
      title: 'Page A, renamed',
      slug: 'offer-a',
      published: 'on',
      seoTitle: 'Offer A',
      seoDescription: 'Line one\nline two',
    }
    const saved = await appFetch(school.host, `/home/subpages/${a}`, {
      form,
      cookie: owner,
    })
    expect(saved.status).toBe(302)
    expect(location(saved)).toBe(`/home/subpages/${a}`)
    expect(flashOf(saved)).toMatchObject({ done: 'saved' })
    expect(await env.DB_SHARD_0.prepare('SELECT title, slug, published, seo_title AS s, seo_description AS d FROM subpages WHERE id = ?').bind(a).first()).toEqual({
      title: 'Page A, renamed',
      slug: 'offer-a',
      published: 1,
      s: 'Offer A',
      d: 'Line one line two',
    })
    expect(
      await (
        await appFetch(school.host, `/home/subpages/${a}`, {
          cookie: followFlash(owner, saved),
        })
      ).text()
    ).toContain('Changes saved')

    const taken = await appFetch(school.host, `/home/subpages/${a}`, {
      form: { ...form, slug: 'page-b' },
      cookie: owner,
    })
    expect(taken.status).toBe(422)
    expect(await taken.text()).toContain('This address is already taken')
    const long = await appFetch(school.host, `/home/subpages/${a}`, {
      form: { ...form, seoTitle: 'x'.repeat(71) },
      cookie: owner,
    })
    expect(long.status).toBe(400)
    expect((await env.DB_SHARD_0.prepare('SELECT slug FROM subpages WHERE id = ?').bind(a).first<{ slug: string }>())!.slug).toBe('offer-a')

    await appFetch(school.host, `/home/subpages/${a}/blocks`, {
      form: { type: 'faq' },
      cookie: owner,
    })
    expect((await blockRows(a)).length).toBe(1)
    const unconfirmed = await appFetch(school.host, `/home/subpages/${a}`, {
      form: { intent: 'delete', confirm: 'delete' },
      cookie: owner,
    })
    expect(unconfirmed.status).toBe(400)
    expect(await unconfirmed.text()).toContain('Type DELETE to confirm')
    const deleted = await appFetch(school.host, `/home/subpages/${a}`, {
      form: { intent: 'delete', confirm: 'DELETE' },
      cookie: owner,
    })
    expect(location(deleted)).toBe('/home/subpages')
    expect(flashOf(deleted)).toMatchObject({ done: 'deleted' })
    expect(
      await (
        await appFetch(school.host, '/home/subpages', {
          cookie: followFlash(owner, deleted),
        })
      ).text()
    ).toContain('Deleted')
    expect((await appFetch(school.host, `/home/subpages/${a}`, { cookie: owner })).status).toBe(404)
    expect((await blockRows(a)).length).toBe(0)
  })
})

describe('/home/subpages/{id}/blocks', () => {
  it("adds blocks without JavaScript (the type's defaults) and with props JSON, in order", async () => {
    const id = await newSubpage('Blocks page')
    const hero = await appFetch(school.host, `/home/subpages/${id}/blocks`, {
      form: { type: 'hero' },
      cookie: owner,
    })
    expect(hero.status).toBe(302)
    expect(location(hero)).toBe(`/home/subpages/${id}/blocks`)
    expect(flashOf(hero)).toMatchObject({ done: 'created' })
    const text = await appFetch(school.host, `/home/subpages/${id}/blocks`, {
      form: {
        type: 'rich_text',
        props: JSON.stringify({ markdown: '## Why this course' }),
      },
      cookie: owner,
    })
    expect(text.status).toBe(302)
    const rows = await blockRows(id)
    expect(rows.map((r) => [r.type, r.position])).toEqual([
      ['hero', 0],
      ['rich_text', 1],
    ])
    expect(JSON.parse(rows[0].props)).toMatchObject({
      heading: 'Your headline',
      align: 'center',
      image: null,
    })
    expect(JSON.parse(rows[1].props)).toEqual({
      markdown: '## Why this course',
    })
    const html = await (
      await appFetch(school.host, `/home/subpages/${id}/blocks`, {
        cookie: owner,
      })
    ).text()
    expect(html).toContain('data-live-preview')
    expect(html).toMatch(/data-block-row="hero"[\s\S]*data-block-row="rich_text"/)
  })

  it('refuses bad props with field errors and writes nothing', async () => {
    const id = await newSubpage('Refusals page')
    const other = await createTestSchool()
    const foreignImage = await readyImage(other.tenantId)
    const foreignProduct = await createProduct(db(), other.tenantId, {
      kind: 'course',
      title: 'Not yours',
    })
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ type: 'hero', props: JSON.stringify({ heading: '   ' }) }, 400, 'This field is required'],
      [
        {
          type: 'faq',
          props: JSON.stringify({ items: [{ question: '', answer: 'x' }] }),
        },
        400,
        'items.0.question',
      ],
      [
        {
          type: 'lead_form',
          props: JSON.stringify({ fields: [{ name: 'name', type: 'text' }] }),
        },
        400,
        'The form needs an email field',
      ],
      [
        {
          type: 'rich_text',
          props: JSON.stringify({ markdown: 'x'.repeat(20_001) }),
        },
        400,
        'markdown',
      ],
      [{ type: 'carousel' }, 400, 'correct the marked fields'],
      [{ type: 'hero', props: '{not json' }, 400, 'The block settings could not be read'],
      [{ type: 'script' }, 400, 'Choose one of the options'],
      [
        {
          type: 'hero',
          props: JSON.stringify({
            heading: 'H',
            image: { path: foreignImage, width: 10, height: 10 },
          }),
        },
        422,
        'One of the images is not in your library',
      ],
      [
        {
          type: 'product_card',
          props: JSON.stringify({ productId: foreignProduct.id }),
        },
        422,
        'Choose a product of your school',
      ],
      [
        {
          type: 'video_embed',
          props: JSON.stringify({
            provider: 'youtube',
            url: 'https://evil.example/watch?v=abcdefgh',
          }),
        },
        400,
        'Paste a YouTube or Vimeo link',
      ],
      [
        {
          type: 'video_embed',
          props: JSON.stringify({
            provider: 'bunny',
            videoId: 'someone-elses',
          }),
        },
        422,
        'Choose a video from your library',
      ],
    ]
    for (const [form, status, text] of cases) {
      // The native form post: the editor again, every problem listed in the page's language.
      const page = await appFetch(school.host, `/home/subpages/${id}/blocks`, {
        form,
        cookie: owner,
      })
      expect(page.status, JSON.stringify(form).slice(0, 120)).toBe(status)
      expect(await page.text(), JSON.stringify(form).slice(0, 120)).toContain(text)
      // A script call (the editor's fetcher) gets the same refusal as field errors keyed by props path.
      expect(
        await (
          await appFetch(school.host, `/home/subpages/${id}/blocks.data`, {
            form,
            cookie: owner,
          })
        ).text()
      ).toContain('errors')
    }
    expect(await blockRows(id)).toEqual([])
  })

  it('updates a block (Changes saved), refuses bad props keeping the stored ones, deletes it (Deleted)', async () => {
    const id = await newSubpage('Update page')
    await appFetch(school.host, `/home/subpages/${id}/blocks`, {
      form: { type: 'faq' },
      cookie: owner,
    })
    const [block] = await blockRows(id)
    const url = `/home/subpages/${id}/blocks/${block.id}`
    const props = {
      heading: 'Questions',
      items: [{ question: 'Is there a certificate?', answer: 'Yes, **signed**.' }],
    }
    const saved = await appFetch(school.host, url, {
      form: { intent: 'save', props: JSON.stringify(props) },
      cookie: owner,
    })
    expect(saved.status).toBe(302)
    expect(location(saved)).toBe(`/home/subpages/${id}/blocks`)
    expect(flashOf(saved)).toMatchObject({ done: 'saved' })
    expect(JSON.parse((await blockRows(id))[0].props)).toEqual(props)
    expect(
      await (
        await appFetch(school.host, `/home/subpages/${id}/blocks`, {
          cookie: followFlash(owner, saved),
        })
      ).text()
    ).toContain('Changes saved')

    // A script call: field errors keyed by the props path; a native post: back to the editor naming the problem.
    const script = await appFetch(school.host, `${url}.data`, {
      form: {
        intent: 'save',
        _js: '1',
        props: JSON.stringify({ heading: 'Q', items: [] }),
      },
      cookie: owner,
    })
    expect(await script.text()).toMatch(/items[\s\S]*validation\.min_number/)
    const native = await appFetch(school.host, url, {
      form: {
        intent: 'save',
        props: JSON.stringify({
          items: [{ question: 'x'.repeat(301), answer: '' }],
        }),
      },
      cookie: owner,
    })
    expect(native.status).toBe(303)
    expect(location(native)).toBe(`/home/subpages/${id}/blocks?edit=${block.id}&problem=subpages.error.props`)
    expect(JSON.parse((await blockRows(id))[0].props)).toEqual(props)
    expect(
      location(
        await appFetch(school.host, url, {
          form: { intent: 'save', props: '' },
          cookie: owner,
        })
      )
    ).toContain('problem=validation.invalid')
    expect((await appFetch(school.host, url, { cookie: owner })).status).toBe(404)

    const deleted = await appFetch(school.host, url, {
      form: { intent: 'delete' },
      cookie: owner,
    })
    expect(location(deleted)).toBe(`/home/subpages/${id}/blocks`)
    expect(flashOf(deleted)).toMatchObject({ done: 'deleted' })
    expect(await blockRows(id)).toEqual([])
    expect(
      (
        await appFetch(school.host, url, {
          form: { intent: 'delete' },
          cookie: owner,
        })
      ).status
    ).toBe(404)
  })

  it('reorders by the whole order and by one step (Order updated); a stale order writes nothing', async () => {
    const id = await newSubpage('Order page')
    for (const type of ['hero', 'rich_text', 'faq'])
      await appFetch(school.host, `/home/subpages/${id}/blocks`, {
        form: { type },
        cookie: owner,
      })
    const ids = (await blockRows(id)).map((r) => r.id)
    const order = `/home/subpages/${id}/blocks/order`
    const whole = await appFetch(school.host, order, {
      form: { order: [ids[2], ids[0], ids[1]].join(',') },
      cookie: owner,
    })
    expect(location(whole)).toBe(`/home/subpages/${id}/blocks`)
    expect(flashOf(whole)).toMatchObject({ done: 'order' })
    expect((await blockRows(id)).map((r) => r.type)).toEqual(['faq', 'hero', 'rich_text'])
    expect(
      await (
        await appFetch(school.host, `/home/subpages/${id}/blocks`, {
          cookie: followFlash(owner, whole),
        })
      ).text()
    ).toContain('Order updated')

    const step = await appFetch(school.host, order, {
      form: { id: ids[1], move: 'up' },
      cookie: owner,
    })
    expect(step.status).toBe(302)
    expect((await blockRows(id)).map((r) => r.type)).toEqual(['faq', 'rich_text', 'hero'])

    const stale = await appFetch(school.host, `${order}.data`, {
      form: { order: [ids[0], ids[1]].join(',') },
      cookie: owner,
    })
    expect(await stale.text()).toContain('subpages.error.order')
    const edge = await appFetch(school.host, order, {
      form: { id: ids[2], move: 'up' },
      cookie: owner,
    })
    expect(edge.status).toBe(303)
    expect(location(edge)).toContain('problem=subpages.error.order')
    expect((await blockRows(id)).map((r) => r.type)).toEqual(['faq', 'rich_text', 'hero'])
  })

  it("another school's page or block is 404 for this school's owner", async () => {
    const other = await createTestSchool()
    const otherOwner = await login(other.host, other.owner.email, other.owner.password)
    const theirs = await appFetch(other.host, '/home/subpages', {
      form: { title: 'Their page', slug: '' },
      cookie: otherOwner,
    })
    const theirId = /subpages\/([^/]+)\/blocks/.exec(location(theirs))![1]
    await appFetch(other.host, `/home/subpages/${theirId}/blocks`, {
      form: {
        type: 'rich_text',
        props: JSON.stringify({ markdown: 'Secret' }),
      },
      cookie: otherOwner,
    })
    const [theirBlock] = await blockRows(theirId)
    const probes: Array<[string, Record<string, string> | undefined]> = [
      [`/home/subpages/${theirId}`, undefined],
      [`/home/subpages/${theirId}/blocks`, undefined],
      [`/home/subpages/${theirId}/blocks`, { type: 'rich_text', props: JSON.stringify({ markdown: 'Hijack' }) }],
      [`/home/subpages/${theirId}/blocks/${theirBlock.id}`, { intent: 'save', props: JSON.stringify({ markdown: 'Hijack' }) }],
      [`/home/subpages/${theirId}/blocks/${theirBlock.id}`, { intent: 'delete' }],
      [`/home/subpages/${theirId}/blocks/order`, { order: theirBlock.id }],
      [`/home/subpages/${theirId}`, { intent: 'delete', confirm: 'DELETE' }],
    ]
    for (const [path, form] of probes) expect((await appFetch(school.host, path, { form, cookie: owner })).status, path).toBe(404)
    const rows = await blockRows(theirId)
    expect(rows.length).toBe(1)
    expect(JSON.parse(rows[0].props)).toEqual({ markdown: 'Secret' })
  })
})

describe('a published sales page at the edge', () => {
  it("is kept no longer than a product card's promotion runs (the card would show a finished promotion)", async () => {
    const t = school.tenantId
    const now = Date.now()
    const course = (await createCatalogueProduct(db(), t, { kind: 'course', title: 'Short sale', published: true }, [{ name: '', amount: 10_000 }]))!
    await saveCatalogue(db(), t, course, { fields: { promoPrice: 5_000, promoStartsAt: now - 60_000, promoEndsAt: now + 90_000 }, prices: [{ name: '', amount: 10_000 }] }, now - 60_000)
    const subpage = (await createSubpage(db(), t, { title: 'Flash sale', slug: 'flash-sale', published: true, seoTitle: '', seoDescription: '' }))!
    expect((await createBlock(db(), t, subpage.id, 'product_card', { productId: course.id }))?.ok).toBe(true)
    const res = await appFetch(school.host, '/p/flash-sale')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Short sale')
    const seconds = Number(/s-maxage=(\d+)/.exec(res.headers.get('Cache-Control') ?? '')?.[1])
    expect(seconds).toBeGreaterThan(0)
    expect(seconds).toBeLessThanOrEqual(90)
  })
})
