// Video posts (issue 22 item 3; seed 000 §3, §4, §7): the seed's create call with
// `video_file_upload=1` creates the post and answers a tus grant from the real media worker (against
// the Bunny peer); only the author gets further grants, refreshes or discards; the post shows
// "processing" until Bunny has transcoded the file, then readers play it through a signed URL.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { VideoBody, VideoGrantBody } from '#app/media/video-contract.ts'
import { createTopic } from '#app/models/community.server.ts'
import { tusUpload } from '#tests/tus.ts'
import { appFetch, createTestSchool, createTestStudent, login, db, type TestSchool } from '#tests/factories.ts'

const peer = inject('bunnyPeer')
type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let school: TestSchool
let other: TestSchool
let author: string
let reader: string
let stranger: string
let topicId: string

const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' }

function createVideoPost(cookie: string, fields: Record<string, string> = {}, host = school.host) {
  const form = new FormData()
  for (const [k, v] of Object.entries({
    title: 'My first bowl',
    body: 'Watch me throw it',
    video_file_upload: '1',
    video_filename: 'bowl.mp4',
    video_size: '4000',
    video_type: 'video/mp4',
    ...fields,
  }))
    form.set(k, v)
  return appFetch(host, `/json/community/topics/${topicId}/post/create`, { method: 'POST', body: form, cookie, headers: XHR })
}

const postJson = (path: string, body: unknown, cookie: string, host = school.host) =>
  appFetch(host, path, { method: 'POST', cookie, headers: { ...XHR, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

beforeAll(async () => {
  school = await createTestSchool()
  other = await createTestSchool()
  topicId = (await createTopic(db(), school.tenantId, { title: 'Show your work', description: '', allowStudentsToAddPosts: true, access: 'public', productIds: [], courseId: null })).id
  const a = await createTestStudent(school.tenantId, { name: 'Vic Video' })
  const r = await createTestStudent(school.tenantId, { name: 'Rae Reader' })
  author = await login(school.host, a.email, a.password)
  reader = await login(school.host, r.email, r.password)
  const o = await createTestStudent(other.tenantId)
  stranger = await login(other.host, o.email, o.password)
})

describe('a video post', () => {
  it('refuses a file that is not a video, and a video file with an image link, writing nothing', async () => {
    const before = await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM community_posts WHERE topic_id = ?').bind(topicId).first<{ n: number }>()
    const bad = await createVideoPost(author, { video_filename: 'notes.pdf', video_type: 'application/pdf' })
    expect(bad.status).toBe(422)
    expect(((await bad.json()) as Json).errors.file[0]).toBe('Bad file extension')
    const both = await createVideoPost(author, { video: 'https://youtu.be/dQw4w9WgXcQ' })
    expect(both.status).toBe(422)
    const after = await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM community_posts WHERE topic_id = ?').bind(topicId).first<{ n: number }>()
    expect(after?.n).toBe(before?.n)
  })

  it('goes from the create call and its grant through tus to "processing", then plays for readers', async () => {
    const created = await createVideoPost(author)
    expect(created.status).toBe(201)
    const answer = (await created.json()) as Json
    expect(answer.videoUpload.endpoint).toBe(`${peer.origin}/tusupload`)
    expect(answer.post).toMatchObject({ title: 'My first bowl', bunny_id: expect.any(String), bunny_status: null, video: null })
    const postId = answer.post.id as string
    const videoId = answer.post.bunny_id as string
    const base = `/community/post-videos/${postId}`

    const page = async (cookie = reader) => (await appFetch(school.host, `/community/posts/${postId}`, { cookie })).text()
    expect(await page()).toContain('This video is being processed.')

    // Only the author asks for grants, refreshes or discards; another school's students learn nothing.
    const grantBody = { filename: 'bowl.mp4', size: 4000, contentType: 'video/mp4' }
    expect((await postJson(`${base}/grant`, grantBody, reader)).status).toBe(404)
    expect((await postJson(`${base}/grant`, grantBody, stranger, other.host)).status).toBe(404)
    expect((await postJson(`${base}/${videoId}/refresh`, {}, reader)).status).toBe(404)
    const fresh = await postJson(`${base}/grant`, grantBody, author)
    expect(fresh.status).toBe(200)
    const grant = (await fresh.json()) as VideoGrantBody
    expect(grant.videoId).toBe(videoId)

    await tusUpload(grant.grant, 4000)
    const deadline = Date.now() + 10_000
    let state = ''
    while (Date.now() < deadline && state !== 'ready') {
      state = ((await (await postJson(`${base}/${videoId}/refresh`, {}, author)).json()) as VideoBody).state
      if (state !== 'ready') await new Promise((r) => setTimeout(r, 100))
    }
    expect(state).toBe('ready')
    // Ready: a discard is refused, the page frames the player through the post's play route.
    expect((await postJson(`${base}/${videoId}/discard`, {}, author)).status).toBe(409)
    const html = await page()
    expect(html).not.toContain('This video is being processed.')
    expect(html).toContain(`src="${base}/play"`)
    const play = await appFetch(school.host, `${base}/play`, { cookie: reader })
    expect(play.status).toBe(302)
    const embed = new URL(play.headers.get('Location')!)
    expect(`${embed.origin}${embed.pathname}`).toBe(`${peer.origin}/embed/${peer.libraryId}/${grant.grant.VideoId}`)
    expect((await appFetch(other.host, `${base}/play`, { cookie: stranger })).status).toBe(404)
    const json = (await (await appFetch(school.host, `/json/community/posts/${postId}`, { method: 'POST', cookie: reader, headers: XHR })).json()) as Json
    expect(json.post.bunny_status).toBe(3)
  })
})

describe('a video comment on a community post (seed 000 §5, §7)', () => {
  it('answers a grant with file=1, uploads by tus, then plays for readers; refused off community posts', async () => {
    const created = (await (await createVideoPost(author, { title: 'A post to comment on', video_file_upload: '0' })).json()) as Json
    const postId = created.post.id as string
    const comment = (body: Record<string, unknown>, cookie: string) =>
      appFetch(school.host, '/comments', { method: 'POST', cookie, headers: { ...XHR, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    const video = { file: 1, video_filename: 'reply.mp4', video_size: 3000, video_type: 'video/mp4' }
    const refused = await comment({ id: postId, type: 'community_post', body: 'My answer', ...video, video_filename: 'reply.exe' }, reader)
    expect(refused.status).toBe(422)
    const ok = await comment({ id: postId, type: 'community_post', body: 'My answer on video', ...video }, reader)
    expect(ok.status).toBe(201)
    const answer = (await ok.json()) as Json
    expect(answer.videoUpload.endpoint).toBe(`${peer.origin}/tusupload`)
    expect(answer.comment.video).toEqual({ view: 'transcoding', embedUrl: null })
    const base = `/community/comment-videos/${answer.comment.id}`
    const grantBody = { filename: 'reply.mp4', size: 3000, contentType: 'video/mp4' }
    expect((await postJson(`${base}/grant`, grantBody, author)).status).toBe(404)
    const fresh = await postJson(`${base}/grant`, grantBody, reader)
    expect(fresh.status).toBe(200)
    const grant = (await fresh.json()) as VideoGrantBody
    await tusUpload(grant.grant, 3000)
    const deadline = Date.now() + 10_000
    let state = ''
    while (Date.now() < deadline && state !== 'ready') {
      state = ((await (await postJson(`${base}/${grant.videoId}/refresh`, {}, reader)).json()) as VideoBody).state
      if (state !== 'ready') await new Promise((r) => setTimeout(r, 100))
    }
    expect(state).toBe('ready')
    const html = await (await appFetch(school.host, `/community/posts/${postId}`, { cookie: author })).text()
    expect(html).toContain(`src="${base}/play"`)
    expect((await appFetch(school.host, `${base}/play`, { cookie: author })).status).toBe(302)
    expect((await appFetch(other.host, `${base}/play`, { cookie: stranger })).status).toBe(404)
  })
})
