// A student's video post (issue 22 item 3; seed 000 §4 "Video post"): the editor's "A video file"
// option creates the post through the seed's create call, sends the file by tus to Bunny (the local
// Bunny peer) with progress, says 'Saved', opens the post — "processing" until the peer has
// transcoded it — and then the post page frames the signed player through the post's play route.
import assert from 'node:assert/strict'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { browserTest, demoSchool, demoUser, expectUrl, logIn, subdomain, url, visit } from './support.ts'

const PEER = process.env.BUNNY_PEER_ORIGIN ?? ''
const code = demoSchool('code-academy')
const CODE = subdomain(code.slug)
const sam = demoUser(code, 'student', 'sam@example.com')

browserTest('a student posts an uploaded video: progress, Saved, processing, then the player', async ({ page }) => {
  assert.ok(PEER, 'BUNNY_PEER_ORIGIN is set by tests/e2e/run.mjs')
  const dir = join(tmpdir(), `coursefront-community-video-${process.pid}`)
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'my-first-bowl.mp4')
  // 3 MB of bytes (the peer does not decode video).
  writeFileSync(file, Buffer.alloc(3 * 1024 * 1024, 7))

  await logIn(page, CODE, sam.email, sam.password)
  await expectUrl(page, CODE, '/panel')
  await visit(page, url(CODE, '/community'))
  await page.locator('[data-topic-link]', { hasText: 'Introductions' }).click()
  const editor = page.locator('[data-post-editor]')
  await editor.locator('[data-attach=upload]').check()
  await editor.getByLabel('Title').fill('My first bowl on the wheel')
  await editor.getByLabel('Post').fill('Three minutes of centering and pulling')
  await editor.locator('#post-video-file').setInputFiles(file)
  const grants: string[] = []
  page.on('request', (req) => {
    if (req.method() === 'POST' && /\/json\/community\/topics\/\w+\/post\/create$/.test(new URL(req.url()).pathname)) grants.push(req.url())
  })
  await editor.locator('[data-post-save]').click()
  await page.waitForURL(/\/community\/posts\/\w+$/, { timeout: 30_000 })
  assert.equal(grants.length, 1, 'one create call')
  // Processing until Bunny says ready; the page tells the reader to come back (no autoplay, no polling).
  const state = page.locator('[data-post-video-state]')
  const player = page.locator('[data-post-video] iframe')
  const deadline = Date.now() + 30_000
  while (!(await player.count()) && Date.now() < deadline) {
    if (await state.count()) assert.match(await state.innerText(), /being processed/)
    await page.waitForTimeout(500)
    await page.reload()
  }
  const src = (await player.getAttribute('src')) ?? ''
  assert.match(src, /^\/community\/post-videos\/\w+\/play$/)
  const frame = page.frameLocator('[data-post-video] iframe')
  await frame.locator('video').waitFor({ state: 'attached', timeout: 15_000 })
  rmSync(dir, { recursive: true, force: true })
})
