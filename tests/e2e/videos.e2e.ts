// A creator uploads lesson videos (issue 4): tus straight to Bunny Stream (here the local Bunny
// peer: a real @tus/server behind Bunny's signature check), through a network cut and a page
// reload, then watches the transcoding notice turn into the signed player.
import assert from 'node:assert/strict'
import { createWriteStream, mkdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before } from 'node:test'
import type { Page } from 'playwright-core'
import { browserTest, expectText, expectUrl, heading, newSchool, signUp, snap, subdomain } from './support.ts'

const PEER = process.env.BUNNY_PEER_ORIGIN ?? ''
const MB = 1024 * 1024
const dir = join(tmpdir(), `coursefront-video-fixtures-${process.pid}`)
const files = { big: join(dir, 'lesson-50mb.mp4'), medium: join(dir, 'webinar-24mb.mp4'), pdf: join(dir, 'notes.pdf') }

/** A file of `size` bytes written in 1 MB blocks (the peer doesn't decode video). */
function writeFile(path: string, size: number) {
  return new Promise<void>((resolve, reject) => {
    const out = createWriteStream(path)
    const block = Buffer.alloc(MB)
    for (let i = 0; i < MB; i++) block[i] = (i * 31) & 0xff
    let written = 0
    const next = () => {
      while (written < size) {
        const n = Math.min(MB, size - written)
        written += n
        if (!out.write(n === MB ? block : block.subarray(0, n))) return out.once('drain', next)
      }
      out.end(resolve)
    }
    out.on('error', reject)
    next()
  })
}

before(async () => {
  assert.ok(PEER, 'BUNNY_PEER_ORIGIN is set by tests/e2e/run.mjs')
  mkdirSync(dir, { recursive: true })
  await writeFile(files.big, 50 * MB)
  await writeFile(files.medium, 24 * MB)
  await writeFile(files.pdf, 2048)
})
after(() => rmSync(dir, { recursive: true, force: true }))

type PeerRequest = { method: string; status: number; uploadOffset: number | null; responseOffset: number | null; bytesReceived: number | null }

async function peerRequests(bunnyVideoId: string): Promise<PeerRequest[]> {
  const res = await fetch(`${PEER}/_peer/requests?videoId=${encodeURIComponent(bunnyVideoId)}`)
  assert.equal(res.status, 200)
  return (await res.json()) as PeerRequest[]
}

const uploader = (page: Page) => page.locator('[data-video-upload]')
const fileInput = (page: Page) => uploader(page).locator('input[type="file"]:not([disabled])')
const progress = async (page: Page) => Number((await uploader(page).locator('[role="progressbar"]').getAttribute('aria-valuenow').catch(() => null)) ?? 0)

async function openVideos(page: Page, language: 'en' | 'pl' = 'en') {
  const school = newSchool(language)
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  await page.getByRole('link', { name: language === 'pl' ? /Filmy/ : /Videos/ }).first().click()
  await expectUrl(page, host, '/home/videos')
  return { school, host }
}

/** The grant the page asked for (its VideoId names the video at Bunny). */
function captureGrants(page: Page) {
  const grants: Array<{ videoId: string; bunnyVideoId: string }> = []
  page.on('response', async (res) => {
    if (res.request().method() === 'POST' && res.url().endsWith('/home/videos/grant') && res.status() === 200) {
      const body = (await res.json()) as { videoId: string; grant: { VideoId: string } }
      grants.push({ videoId: body.videoId, bunnyVideoId: body.grant.VideoId })
    }
  })
  return grants
}

browserTest('a 50 MB video survives a network cut: the upload resumes from its offset, then plays', async ({ page, context }) => {
  const { host } = await openVideos(page)
  const grants = captureGrants(page)
  const statuses = new Set<string>()
  let cutAt: number | null = null

  // Halfway through, the network goes away for a few seconds: the PATCH in flight fails, every
  // request fails until it is back (tus-js-client retries after 0, 3, 5… s).
  await context.route(`${PEER}/tusupload**`, async (route) => {
    const request = route.request()
    const offset = Number((await request.allHeaders())['upload-offset'] ?? -1)
    if (request.method() === 'PATCH' && cutAt === null && offset >= 20 * MB) {
      cutAt = offset
      await context.setOffline(true)
      setTimeout(() => void context.setOffline(false), 2500)
      return route.abort('internetdisconnected')
    }
    return route.continue()
  })

  await page.getByLabel('Title (optional)').fill('Lesson 1: the big picture')
  await fileInput(page).setInputFiles(files.big)
  const status = uploader(page).getByRole('status')
  // Watch what the uploader says while it works.
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    const text = (await status.textContent()) ?? ''
    if (text) statuses.add(text.replace(/\d+%/, 'N%'))
    if (await uploader(page).locator('[data-video-uploaded]').isVisible()) break
    await page.waitForTimeout(100)
  }
  const notice = uploader(page).locator('[data-video-uploaded]')
  await expectText(notice, /OK\s*Saved/)
  await snap(page, 'video-uploaded')
  assert.ok(cutAt !== null, 'the network was cut during the upload')
  assert.ok([...statuses].some((s) => s.startsWith('Connection lost. Trying again')), `the uploader said it was retrying (saw: ${[...statuses].join(' | ')})`)

  assert.equal(grants.length, 1)
  const log = await peerRequests(grants[0].bunnyVideoId)
  const patches = log.filter((r) => r.method === 'PATCH' && r.status === 204)
  const received = patches.reduce((sum, r) => sum + (r.bytesReceived ?? 0), 0)
  assert.equal(received, 50 * MB, 'every byte arrived exactly once (nothing re-sent from zero)')
  assert.equal(patches.filter((r) => r.uploadOffset === 0).length, 1, 'only the first PATCH started at 0')
  const afterCut = patches.filter((r) => (r.uploadOffset ?? 0) >= (cutAt ?? 0))
  assert.ok(afterCut.length > 0 && (afterCut[0].uploadOffset ?? 0) > 0, 'after the cut the upload continued from its offset')
  assert.ok(log.some((r) => r.method === 'HEAD'), 'the client asked the server for the offset (HEAD) before resuming')

  // The list shows the video; its page shows the transcoding notice, then the signed player.
  await expectText(page.locator('[data-video-list]'), 'Lesson 1: the big picture')
  await page.getByRole('link', { name: 'Lesson 1: the big picture' }).click()
  await expectUrl(page, host, `/home/videos/${grants[0].videoId}`)
  await expectText(heading(page), 'Lesson 1: the big picture')
  const player = page.locator('iframe[data-video-player]')
  await player.waitFor({ state: 'attached', timeout: 30_000 })
  const src = (await player.getAttribute('src')) ?? ''
  assert.ok(src.startsWith(`${PEER}/embed/`), `embed URL on the Bunny player host (${src})`)
  const embed = new URL(src)
  assert.match(embed.searchParams.get('token') ?? '', /^[0-9a-f]{64}$/)
  assert.equal(embed.searchParams.get('autoplay'), 'false')
  assert.equal(embed.searchParams.get('preload'), 'false')
  const frame = page.frameLocator('iframe[data-video-player]')
  await frame.locator('video').waitFor({ state: 'attached', timeout: 15_000 })
  await expectText(page.locator('[data-video-state]'), /Ready|Playable/)
  await snap(page, 'video-playing')
})

browserTest('an upload interrupted by a reload continues where it stopped when the same file is chosen again', async ({ page, context }) => {
  await openVideos(page)
  const grants = captureGrants(page)
  // Slow the PATCHes down a little so the reload lands mid-upload.
  await context.route(`${PEER}/tusupload**`, async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 300))
    return route.continue()
  })
  await fileInput(page).setInputFiles(files.medium)
  await page.waitForFunction(() => Number(document.querySelector('[data-video-upload] [role="progressbar"]')?.getAttribute('aria-valuenow') ?? 0) >= 30, null, { timeout: 60_000 })
  const before = await progress(page)
  await page.reload()
  await fileInput(page).setInputFiles(files.medium)
  await expectText(uploader(page).getByRole('status'), /Continuing the earlier upload/, 20_000)
  await expectText(uploader(page).locator('[data-video-uploaded]'), /OK\s*Saved/, 90_000)

  assert.equal(new Set(grants.map((g) => g.videoId)).size, 1, 'the same video continued (a fresh grant for it, no new video)')
  const log = await peerRequests(grants[0].bunnyVideoId)
  const patches = log.filter((r) => r.method === 'PATCH' && r.status === 204)
  assert.equal(
    patches.reduce((sum, r) => sum + (r.bytesReceived ?? 0), 0),
    24 * MB,
    'no byte was sent twice',
  )
  assert.ok(patches.filter((r) => r.uploadOffset === 0).length === 1, `resumed from the stored offset (was at ${before}%)`)
  await expectText(page.locator('[data-video-list]'), 'webinar-24mb')
})

browserTest('the uploader refuses what Bunny would not take, in Polish, and sends an expired session to the login page', async ({ page, context }) => {
  const { host } = await openVideos(page, 'pl')
  await fileInput(page).setInputFiles(files.pdf)
  await expectText(uploader(page).getByRole('alert'), 'Nieprawidłowe rozszerzenie pliku')
  // The session ends (another tab logged out): the grant answers 419 and, as every script call
  // does (seed 000 §7), the page goes to /login.
  await context.clearCookies()
  const expired = page.waitForResponse((res) => res.url().endsWith('/home/videos/grant'))
  await fileInput(page).setInputFiles(files.medium)
  assert.equal((await expired).status(), 419)
  await page.waitForURL((u) => u.hostname === host && u.pathname === '/login')
})
