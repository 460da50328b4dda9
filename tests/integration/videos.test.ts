// Videos through the app (issue 4 §4): /home/videos for owners and admins, the grant from the real
// media worker (auxiliary) against the Bunny peer (a Node process started by the global setup),
// Bunny's webhook through the public media host, and the signed player on the video's page.
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { videos } from '#app/db/schema.server.ts'
import type { VideoBody, VideoGrantBody } from '#app/media/video-contract.ts'
import { getVideo } from '#app/models/video.server.ts'
import { tusUpload } from '#tests/tus.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, login, type TestSchool } from '#tests/factories.ts'

const peer = inject('bunnyPeer')

function postJson(host: string, path: string, body: unknown, cookie?: string) {
  return appFetch(host, path, { method: 'POST', cookie, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) })
}

const grantBody = (extra: Record<string, unknown> = {}) => ({ title: 'Welcome', filename: 'welcome.mp4', size: 3000, contentType: 'video/mp4', ...extra })

async function grant(host: string, cookie: string, extra: Record<string, unknown> = {}) {
  const res = await postJson(host, '/home/videos/grant', grantBody(extra), cookie)
  return { status: res.status, body: (await res.json()) as VideoGrantBody & { error?: string } }
}

async function hmacHex(secret: string, body: string) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return [...new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)))].map((b) => b.toString(16).padStart(2, '0')).join('')
}

let school: TestSchool
let other: TestSchool
let owner: string
let otherOwner: string
let student: string

beforeAll(async () => {
  school = await createTestSchool()
  other = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  otherOwner = await login(other.host, other.owner.email, other.owner.password)
  const s = await createTestStudent(school.tenantId)
  student = await login(school.host, s.email, s.password)
})

describe('/home/videos', () => {
  it('is for owners and admins: students get 404, visitors the login page', async () => {
    const page = await appFetch(school.host, '/home/videos', { cookie: owner })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Upload a video')
    expect(html).toContain('No videos yet.')
    expect((await appFetch(school.host, '/home/videos', { cookie: student })).status).toBe(404)
    const anonymous = await appFetch(school.host, '/home/videos')
    expect(anonymous.status).toBe(302)
    expect(anonymous.headers.get('Location')).toBe('/login?redirectTo=%2Fhome%2Fvideos')
  })

  it('lets the page talk to the tus endpoint and frame the player (CSP)', async () => {
    const csp = (await appFetch(school.host, '/home/videos', { cookie: owner })).headers.get('Content-Security-Policy') ?? ''
    expect(csp).toMatch(new RegExp(`connect-src [^;]*${peer.origin.replace(/[.]/g, '\\.')}`))
    expect(csp).toMatch(new RegExp(`frame-src 'self' ${peer.origin.replace(/[.]/g, '\\.')}`))
  })
})

describe('grant', () => {
  it('gives the owner a Bunny grant for a new video of this school', async () => {
    const { status, body } = await grant(school.host, owner)
    expect(status).toBe(200)
    expect(body.grant.endpoint).toBe(`${peer.origin}/tusupload`)
    expect(body.grant).toMatchObject({ LibraryId: peer.libraryId, title: 'Welcome' })
    const row = await getVideo(db(), school.tenantId, body.videoId)
    expect(row).toMatchObject({ tenantId: school.tenantId, createdBy: school.owner.id, state: 'awaiting_upload' })
  })

  it('refuses students (404), expired sessions (419) and bad files (the uploader messages), writing nothing', async () => {
    expect((await postJson(school.host, '/home/videos/grant', grantBody(), student)).status).toBe(404)
    const expired = await postJson(school.host, '/home/videos/grant', grantBody())
    expect(expired.status).toBe(419)
    const before = await db().$count(videos)
    const bad = await grant(school.host, owner, { filename: 'slides.pdf' })
    expect(bad).toMatchObject({ status: 400, body: { error: 'media.error.bad_extension' } })
    const empty = await grant(school.host, owner, { size: 0 })
    expect(empty).toMatchObject({ status: 400, body: { error: 'media.error.empty' } })
    const garbage = await appFetch(school.host, '/home/videos/grant', { method: 'POST', cookie: owner, headers: { 'Content-Type': 'application/json' }, body: '{"filename":' })
    expect(garbage.status).toBe(400)
    expect(await db().$count(videos)).toBe(before)
  })

  it("never resumes another school's video", async () => {
    const theirs = await grant(other.host, otherOwner)
    const attempt = await grant(school.host, owner, { videoId: theirs.body.videoId })
    expect(attempt.status).toBe(404)
    expect(attempt.body).not.toHaveProperty('grant')
  })
})

describe('a video from upload to player', () => {
  it('shows the transcoding notice, takes signed webhooks through the media host, then the signed player', async () => {
    const { body } = await grant(school.host, owner, { title: 'Lesson 2', size: 5000 })
    const page = async () => (await appFetch(school.host, `/home/videos/${body.videoId}`, { cookie: owner })).text()
    expect(await page()).toContain('This upload has not finished.')

    const send = (d: { body: string; signature: string }, signature = d.signature) =>
      appFetch('media.localhost', '/webhooks/bunny', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-BunnyStream-Signature-Version': 'v1', 'X-BunnyStream-Signature-Algorithm': 'hmac-sha256', 'X-BunnyStream-Signature': signature, Cookie: owner },
        body: d.body,
      })
    // "Encoding" (webhook 2), signed as Bunny signs: HMAC-SHA256 of the raw body with the read-only key.
    const encoding = JSON.stringify({ VideoLibraryId: Number(peer.libraryId), VideoGuid: body.grant.VideoId, Status: 2 })
    expect((await send({ body: encoding, signature: await hmacHex(peer.webhookSecret, encoding) })).status).toBe(200)
    expect((await getVideo(db(), school.tenantId, body.videoId))?.state).toBe('transcoding')
    expect(await page()).toContain('This video is now transcoding. Please reload the page in few minutes to check if it has uploaded correctly.')

    await tusUpload(body.grant, 5000)
    // The peer "transcodes" (300 ms in tests) and records the webhooks it would send (workerd
    // listens on no socket): replay its "Finished" through the public media host exactly as signed.
    const deadline = Date.now() + 10_000
    let deliveries: Array<{ body: string; signature: string; status: number }> = []
    while (Date.now() < deadline) {
      deliveries = (await (await fetch(`${peer.origin}/_peer/webhooks?videoId=${body.grant.VideoId}`)).json()) as typeof deliveries
      if (deliveries.some((d) => d.status === 3)) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const finished = deliveries.find((d) => d.status === 3)!
    expect((await send(finished, '0'.repeat(64))).status).toBe(401)
    expect((await getVideo(db(), school.tenantId, body.videoId))?.state).toBe('transcoding')
    expect((await send(finished)).status).toBe(200)
    expect((await getVideo(db(), school.tenantId, body.videoId))?.state).toBe('ready')

    const html = await page()
    const src = /<iframe[^>]*src="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&')
    expect(src).toBeTruthy()
    const embed = new URL(src!)
    expect(`${embed.origin}${embed.pathname}`).toBe(`${peer.origin}/embed/${peer.libraryId}/${body.grant.VideoId}`)
    expect((await fetch(src!)).status).toBe(200)
    expect(html).not.toContain('This video is now transcoding')
  })

  it('the media host takes only POST on the webhook path', async () => {
    expect((await appFetch('media.localhost', '/webhooks/bunny')).status).toBe(405)
  })

  it('refresh reads the state from Bunny when a webhook never came', async () => {
    const { body } = await grant(school.host, owner, { size: 1200 })
    await tusUpload(body.grant, 1200)
    const deadline = Date.now() + 10_000
    let state = ''
    while (Date.now() < deadline && state !== 'ready') {
      const res = await postJson(school.host, `/home/videos/${body.videoId}/refresh`, {}, owner)
      state = ((await res.json()) as VideoBody).state
      if (state !== 'ready') await new Promise((r) => setTimeout(r, 100))
    }
    expect(state).toBe('ready')
  })
})

describe('rename and delete', () => {
  it('refuses an empty title with the seed message, renames, and deletes only when confirmed', async () => {
    const { body } = await grant(school.host, owner, { title: 'Draft' })
    const empty = await appFetch(school.host, `/home/videos/${body.videoId}`, { form: { intent: 'rename', title: '  ' }, cookie: owner })
    expect(empty.status).toBe(400)
    expect(await empty.text()).toContain('Title can not be empty')
    expect((await getVideo(db(), school.tenantId, body.videoId))?.title).toBe('Draft')

    const renamed = await appFetch(school.host, `/home/videos/${body.videoId}`, { form: { intent: 'rename', title: 'Final cut' }, cookie: owner })
    expect(renamed.status).toBe(302)
    expect((await getVideo(db(), school.tenantId, body.videoId))?.title).toBe('Final cut')

    const unconfirmed = await appFetch(school.host, `/home/videos/${body.videoId}`, { form: { intent: 'delete' }, cookie: owner })
    expect(unconfirmed.status).toBe(400)
    expect(await getVideo(db(), school.tenantId, body.videoId)).toBeTruthy()

    const deleted = await appFetch(school.host, `/home/videos/${body.videoId}`, { form: { intent: 'delete', confirm: 'on' }, cookie: owner })
    expect(deleted.status).toBe(302)
    expect(deleted.headers.get('Location')).toBe('/home/videos')
    expect(flashOf(deleted)).toMatchObject({ done: 'deleted' })
    expect(await getVideo(db(), school.tenantId, body.videoId)).toBeUndefined()
    expect((await fetch(`${peer.origin}/_peer/videos/${body.grant.VideoId}`)).status).toBe(404)
  })

  it('discard (cancelled upload) removes an unfinished video, never a finished one', async () => {
    const { body } = await grant(school.host, owner)
    const res = await postJson(school.host, `/home/videos/${body.videoId}/discard`, {}, owner)
    expect(res.status).toBe(200)
    expect(await getVideo(db(), school.tenantId, body.videoId)).toBeUndefined()
  })
})
