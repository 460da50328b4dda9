// Community galleries through the app (issue 22 item 5; seed 000 widget 4/16, §7, §9): pictures and
// playing videos only from topics the viewer may read (a members-only topic's items hidden from a
// student without the membership, 404 for its gallery), text posts and videos still transcoding
// left out, the "see all" threshold (6), the 4-per-row grid, the JSON calls' shape and keyset paging,
// visitors sent to log in (401 for a script), another school's topic 404.
import { beforeAll, describe, expect, it } from 'vitest'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createPost, createTopic, setTopicArchived, type PostInput } from '#app/models/community.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { applyVideoState, insertVideo } from '#app/models/video.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

let school: TestSchool
let other: TestSchool
let owner: string
let member: string
let plain: string
let stranger: string
let studentId: string
let publicTopic: string
let membersTopic: string
const ids: Record<string, string> = {}

const topicInput = { description: '', allowStudentsToAddPosts: true, productIds: [] as string[], courseId: null }
const noMedia = { imagePath: null, videoUrl: null, videoId: null }
let clock = Date.now() - 3_600_000

/** A post written one second after the previous one (newest first is then predictable). */
async function post(topicId: string, title: string, media: Partial<PostInput> = {}) {
  clock += 1000
  const row = await createPost(db(), school.tenantId, topicId, { id: studentId, name: 'Gil Gallery', role: 'student' }, { title, body: `${title} body`, ...noMedia, ...media }, clock)
  ids[title] = row.id
  return row
}
const image = (name: string) => ({ imagePath: `tenants/${school.tenantId}/post_image/${name}.png` })

async function video(state: 'ready' | 'transcoding') {
  const row = await insertVideo(db(), school.tenantId, { libraryId: '4242', bunnyVideoId: crypto.randomUUID(), title: `clip ${state}`, originalFilename: 'clip.mp4', size: 1000 })
  await applyVideoState(db(), school.tenantId, row.id, { state })
  return row.id
}

function callJson(path: string, cookie?: string, body?: Record<string, string>) {
  return appFetch(school.host, path, { method: 'POST', cookie, headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) })
}

type ItemJson = {
  post_id: string
  type: string
  title: string
  image: string | null
  video: string | null
  author_name: string
  community_topic: { id: string; title: string }
  created_at: string
  post_url: string
}

beforeAll(async () => {
  school = await createTestSchool({ name: 'Glaze Guild' })
  other = await createTestSchool()
  const membership = await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Guild members', published: true })
  publicTopic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Show and tell', access: 'public' })).id
  membersTopic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Members corner', access: 'restricted', productIds: [membership.id] })).id
  const m = await createTestStudent(school.tenantId, { name: 'Mo Member' })
  const p = await createTestStudent(school.tenantId, { name: 'Gil Gallery' })
  studentId = p.id
  await grantProductAccess(db(), school.tenantId, { productId: membership.id, userId: m.id, source: 'manual' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  member = await login(school.host, m.email, m.password)
  plain = await login(school.host, p.email, p.password)
  const o = await createTestStudent(other.tenantId)
  stranger = await login(other.host, o.email, o.password)

  await post(publicTopic, 'First vase', image('vase'))
  await post(publicTopic, 'Only words here')
  await post(publicTopic, 'Wheel video', { videoUrl: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' })
  await post(publicTopic, 'Uploaded ready clip', { videoId: await video('ready') })
  await post(publicTopic, 'Uploaded clip still encoding', { videoId: await video('transcoding') })
  await post(membersTopic, 'Members only bowl', image('bowl'))
  await post(publicTopic, 'Second vase', image('vase2'))
})

describe('who sees which items', () => {
  it('sends a visitor to log in (pages) and answers 401 to a script', async () => {
    const page = await appFetch(school.host, '/community/gallery')
    expect(page.status).toBe(302)
    expect(page.headers.get('Location')).toBe(`/login?redirectTo=${encodeURIComponent('/community/gallery')}`)
    const topicPage = await appFetch(school.host, `/community/gallery/${publicTopic}`)
    expect(topicPage.status).toBe(302)
    expect((await callJson('/json/community/gallery')).status).toBe(401)
    expect((await callJson(`/json/community/gallery-preview/${publicTopic}`)).status).toBe(401)
  })

  it('shows a student without the membership pictures and playing videos of the public topics only', async () => {
    const res = await appFetch(school.host, '/community/gallery', { cookie: plain })
    expect(res.status).toBe(200)
    const html = await res.text()
    for (const title of ['First vase', 'Second vase', 'Wheel video', 'Uploaded ready clip']) expect(html).toContain(`data-gallery-item="${ids[title]}"`)
    for (const title of ['Only words here', 'Uploaded clip still encoding', 'Members only bowl']) expect(html).not.toContain(ids[title])
    expect(html).not.toContain('Members corner')
    const json = (await (await callJson('/json/community/gallery', plain)).json()) as { data: ItemJson[] }
    expect(json.data.map((i) => i.title)).toEqual(['Second vase', 'Uploaded ready clip', 'Wheel video', 'First vase'])
  })

  it('hides a members-only topic: its gallery page and calls are 404 to a student without access', async () => {
    expect((await appFetch(school.host, `/community/gallery/${membersTopic}`, { cookie: plain })).status).toBe(404)
    expect((await callJson(`/json/community/gallery/${membersTopic}`, plain)).status).toBe(404)
    expect((await callJson(`/json/community/gallery-preview/${membersTopic}`, plain)).status).toBe(404)
    const preview = (await (await callJson('/json/community/gallery-preview', plain)).json()) as { data: ItemJson[] }
    expect(preview.data.some((i) => i.title === 'Members only bowl')).toBe(false)
  })

  it('opens the members-only items to a member and to the owner', async () => {
    for (const cookie of [member, owner]) {
      const all = (await (await callJson('/json/community/gallery', cookie)).json()) as { data: ItemJson[] }
      expect(all.data.map((i) => i.title)).toContain('Members only bowl')
      const page = await appFetch(school.host, `/community/gallery/${membersTopic}`, { cookie })
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toContain(`data-gallery-item="${ids['Members only bowl']}"`)
      expect(html).not.toContain(`data-gallery-item="${ids['First vase']}"`)
    }
  })

  it('answers 404 to another school, its students and visitors, and for an archived topic', async () => {
    for (const cookie of [stranger, undefined]) {
      expect((await appFetch(other.host, `/community/gallery/${publicTopic}`, { cookie })).status).toBe(404)
      const res = await appFetch(other.host, `/json/community/gallery/${publicTopic}`, { method: 'POST', cookie, headers: { Accept: 'application/json' } })
      expect(res.status).toBe(404)
    }
    const strangers = (await (await appFetch(other.host, '/json/community/gallery', { method: 'POST', cookie: stranger, headers: { Accept: 'application/json' } })).json()) as { data: ItemJson[] }
    expect(strangers.data).toEqual([])
    const archived = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Old stuff', access: 'public' })).id
    await setTopicArchived(db(), school.tenantId, archived, true)
    expect((await appFetch(school.host, `/community/gallery/${archived}`, { cookie: owner })).status).toBe(404)
    expect((await callJson(`/json/community/gallery/${archived}`, owner)).status).toBe(404)
  })
})

describe('the gallery (seed 000 widget 4: 4 per row, lightbox)', () => {
  it('renders 4 per row, each tile a link to its post before JavaScript, and a link back to the topic', async () => {
    const html = await (await appFetch(school.host, `/community/gallery/${publicTopic}`, { cookie: plain })).text()
    expect(html).toMatch(/<ul class="[^"]*sm:grid-cols-4[^"]*" data-gallery-grid="true" data-columns="4">/)
    expect(html).toContain(`href="/community/posts/${ids['Second vase']}" aria-label="Second vase" data-gallery-thumb="0"`)
    expect(html).toContain(`/tenants/${school.tenantId}/post_image/vase2.png`)
    expect(html).toContain(`href="/community/topics/${publicTopic}"`)
    expect(html).toContain('Gallery: Show and tell')
  })

  it('answers the seed’s item shape, newest first, uploaded videos through the post’s player', async () => {
    const res = await callJson(`/json/community/gallery/${publicTopic}`, plain)
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toContain('no-store')
    const body = (await res.json()) as { data: ItemJson[]; next_page_url: string | null }
    expect(body.next_page_url).toBeNull()
    const [second, uploaded, embed, first] = body.data
    expect(body.data).toHaveLength(4)
    expect(second).toMatchObject({
      post_id: ids['Second vase'],
      type: 'image',
      title: 'Second vase',
      video: null,
      author_name: 'Gil Gallery',
      community_topic: { id: publicTopic, title: 'Show and tell' },
      post_url: `/community/posts/${ids['Second vase']}`,
    })
    expect(second.image).toMatch(new RegExp(`/tenants/${school.tenantId}/post_image/vase2\\.png$`))
    expect(new Date(second.created_at).getTime()).toBeGreaterThan(new Date(first.created_at).getTime())
    expect(uploaded).toMatchObject({ type: 'video', image: null, video: `/community/post-videos/${ids['Uploaded ready clip']}/play` })
    expect(embed).toMatchObject({ type: 'video', image: null, video: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' })
  })

  it('shows the "see all" link at 6 or more items, never before', async () => {
    const topic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Threshold', access: 'public' })).id
    for (let i = 1; i <= 5; i++) await post(topic, `Tile ${i}`, image(`tile${i}`))
    const five = (await (await callJson(`/json/community/gallery-preview/${topic}`, plain)).json()) as { data: ItemJson[]; see_all: boolean; see_all_url: string | null }
    expect(five).toMatchObject({ see_all: false, see_all_url: null })
    expect(five.data).toHaveLength(5)
    await post(topic, 'Tile 6', image('tile6'))
    const six = (await (await callJson(`/json/community/gallery-preview/${topic}`, plain)).json()) as { data: ItemJson[]; see_all: boolean; see_all_url: string | null }
    expect(six).toMatchObject({ see_all: true, see_all_url: `/community/gallery/${topic}` })
    expect(six.data).toHaveLength(6)
    await post(topic, 'Tile 7', image('tile7'))
    const seven = (await (await callJson(`/json/community/gallery-preview/${topic}`, plain)).json()) as { data: ItemJson[]; see_all: boolean }
    expect(seven.see_all).toBe(true)
    expect(seven.data.map((i) => i.title)).toEqual(['Tile 7', 'Tile 6', 'Tile 5', 'Tile 4', 'Tile 3', 'Tile 2'])
    const overall = (await (await callJson('/json/community/gallery-preview', plain)).json()) as { see_all: boolean; see_all_url: string | null }
    expect(overall).toMatchObject({ see_all: true, see_all_url: '/community/gallery' })
  })

  it('pages by keyset: 24 a page, next_page_url and the page’s "older" link', async () => {
    const topic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Busy wall', access: 'public' })).id
    for (let i = 1; i <= 26; i++) await post(topic, `Wall ${i}`, image(`wall${i}`))
    const first = (await (await callJson(`/json/community/gallery/${topic}`, plain)).json()) as { data: ItemJson[]; next_page_url: string }
    expect(first.data).toHaveLength(24)
    expect(first.data[0].title).toBe('Wall 26')
    expect(first.next_page_url).toMatch(new RegExp(`^/json/community/gallery/${topic}\\?cursor=\\d+_`))
    const second = (await (await callJson(first.next_page_url, plain)).json()) as { data: ItemJson[]; next_page_url: string | null }
    expect(second.data.map((i) => i.title)).toEqual(['Wall 2', 'Wall 1'])
    expect(second.next_page_url).toBeNull()
    const html = await (await appFetch(school.host, `/community/gallery/${topic}`, { cookie: plain })).text()
    expect(html).toContain('data-gallery-older')
    const href = /href="(\/community\/gallery\/[^"?]+\?before=[^"]+)"/.exec(html)?.[1].replaceAll('&amp;', '&')
    expect(href).toBeDefined()
    const page2 = await (await appFetch(school.host, href!, { cookie: plain })).text()
    expect(page2).toContain(`data-gallery-item="${ids['Wall 1']}"`)
    expect(page2).not.toContain(`data-gallery-item="${ids['Wall 26']}"`)
  })
})
