// Publish guards (issue 23 item 3) through the app: a course with no published lecture is not
// published (message next to Publish, nothing written), it is once a lecture is published; a
// viewer with access to a course with nothing published sees "content coming soon" (200), never
// the redirect back to the course page that looped with its "Watch" button.
import { beforeAll, describe, expect, it } from 'vitest'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, login, type TestSchool } from '#tests/factories.ts'
import { env } from 'cloudflare:workers'

let school: TestSchool
let owner: string
let buyer: string
let buyerId: string
let stranger: string

const location = (res: Response) => res.headers.get('Location') ?? ''
const row = (id: string) => env.DB_SHARD_0.prepare('SELECT published, updated_at AS updatedAt FROM products WHERE id = ?').bind(id).first<{ published: number; updatedAt: number }>()
const publish = (id: string, cookie = owner, host = school.host) => appFetch(host, `/home/products/${id}`, { form: { intent: 'publish' }, cookie })

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const b = await createTestStudent(school.tenantId)
  buyerId = b.id
  buyer = await login(school.host, b.email, b.password)
  const s = await createTestStudent(school.tenantId)
  stranger = await login(school.host, s.email, s.password)
})

describe('publishing a course', () => {
  it('is refused while no lecture is published, with the message next to Publish and nothing written', async () => {
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Empty course' })
    const editor = await (await appFetch(school.host, `/home/products/${course.id}`, { cookie: owner })).text()
    expect(editor).toContain('data-publish-note="needs_lecture"')
    expect(editor).toContain('This course has no published lecture yet.')
    const before = await row(course.id)

    const refused = await publish(course.id)
    expect(refused.status).toBe(409)
    const html = await refused.text()
    expect(html).toContain('data-field-error="publish"')
    expect(html).toContain('Publish at least one lecture before publishing the course')
    expect(await row(course.id)).toEqual(before)

    // A draft lecture does not count.
    const section = (await createSection(db(), school.tenantId, course.id, 'Start'))!
    const draft = await createLecture(db(), school.tenantId, course.id, section.id, { title: 'Draft one', kind: 'text', body: 'x' })
    if (!draft?.ok) throw new Error('lecture')
    expect((await publish(course.id)).status).toBe(409)
    expect((await row(course.id))?.published).toBe(0)

    // Published through the lecture form: now the course may be published.
    const path = `/home/courses/${course.id}/sections/${section.id}/lectures/${draft.lecture.id}`
    const saved = await appFetch(school.host, path, { cookie: owner, form: { intent: 'update', title: 'Draft one', kind: 'text', body: 'x', published: 'on' } })
    expect(location(saved)).toBe(path)
    const ok = await publish(course.id)
    expect(location(ok)).toBe(`/home/products/${course.id}`)
    expect(flashOf(ok)).toMatchObject({ done: 'published' })
    expect((await row(course.id))?.published).toBe(1)

    // Our choice: unpublishing the last published lecture of a published course is allowed, with a warning.
    const emptied = await appFetch(school.host, path, { cookie: owner, form: { intent: 'update', title: 'Draft one', kind: 'text', body: 'x' } })
    expect(flashOf(emptied)).toMatchObject({ done: 'saved', message: 'publishing.done.saved_last_unpublished' })
    expect((await row(course.id))?.published).toBe(1)
    expect(await (await appFetch(school.host, `/home/courses/${course.id}/sections`, { cookie: owner })).text()).toContain('buyers see “Content coming soon”')
  })

  it('says so in Polish in a Polish school, and another school cannot publish the course', async () => {
    const pl = await createTestSchool({ language: 'pl' })
    const plOwner = await login(pl.host, pl.owner.email, pl.owner.password)
    const course = await createProduct(db(), pl.tenantId, { kind: 'course', title: 'Pusty kurs' })
    const refused = await publish(course.id, plOwner, pl.host)
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain('Opublikuj co najmniej jedną lekcję, zanim opublikujesz kurs')
    expect((await publish(course.id, owner, school.host)).status).toBe(404)
    expect((await row(course.id))?.published).toBe(0)
  })

  it('leaves other kinds alone', async () => {
    const ebook = await createProduct(db(), school.tenantId, { kind: 'file', title: 'Workbook' })
    expect(flashOf(await publish(ebook.id))).toMatchObject({ done: 'published' })
    expect((await row(ebook.id))?.published).toBe(1)
  })
})

describe('a course with nothing published yet', () => {
  it('shows a buyer "content coming soon" at /{slug}/watch (200), not a redirect to the course page', async () => {
    // Published before the guard existed (or by data): the buyer must not loop.
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Soon course', published: true })
    const section = (await createSection(db(), school.tenantId, course.id, 'Later'))!
    await createLecture(db(), school.tenantId, course.id, section.id, { title: 'Hidden draft', kind: 'text', body: 'secret' })
    expect(await grantProductAccess(db(), school.tenantId, { productId: course.id, userId: buyerId, source: 'purchase' })).toBe('granted')

    const res = await appFetch(school.host, `/${course.slug}/watch`, { cookie: buyer })
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('private, no-store')
    const html = await res.text()
    expect(html).toContain('data-coming-soon')
    expect(html).toContain('Soon course')
    expect(html).toContain('will appear here as soon as the author publishes them')
    expect(html).toContain('href="/panel"')
    expect(html).not.toContain('Hidden draft')

    // No access: the course page with its offer, as before (it shows Buy, so no loop).
    expect(location(await appFetch(school.host, `/${course.slug}/watch`, { cookie: stranger }))).toBe(`/${course.slug}`)
    expect(location(await appFetch(school.host, `/${course.slug}/watch`))).toBe(`/${course.slug}`)

    // The owner previews drafts: the draft lecture opens in the player.
    expect(location(await appFetch(school.host, `/${course.slug}/watch`, { cookie: owner }))).toMatch(new RegExp(`^/${course.slug}/watch/[a-z2-7]+$`))
  })

  it('shows staff the page too when the course has no lecture at all, with a way to the builder', async () => {
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Bare course', published: true })
    const res = await appFetch(school.host, `/${course.slug}/watch`, { cookie: owner })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Content coming soon')
    expect(html).toContain(`href="/home/courses/${course.id}/sections"`)
  })
})
