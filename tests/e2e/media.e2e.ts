// A school owner sets the cover and avatar: the browser compresses the photo, uploads it straight
// to storage and the images show on the school (issue 4). Then the refusals a user can meet.
import assert from 'node:assert/strict'
import { readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { before } from 'node:test'
import type { Locator, Page } from 'playwright-core'
import { makeFixtures } from '../fixtures/make-fixtures.mjs'
import { browserTest, expectText, expectUrl, heading, newSchool, signUp, snap, subdomain, url, visit } from './support.ts'

let fixtures: Awaited<ReturnType<typeof makeFixtures>>
before(async () => {
  fixtures = await makeFixtures(join(tmpdir(), `coursefront-media-fixtures-${process.pid}`))
})

const uploader = (page: Page, name: string) => page.locator(`[data-image-upload="${name}"]`)
const fileInput = (page: Page, name: string) => uploader(page, name).locator('input[type="file"]:not([disabled])')

async function imageLoaded(img: Locator) {
  await img.waitFor({ state: 'visible' })
  const width = await img.evaluate(async (el: HTMLImageElement) => {
    if (!el.complete) await new Promise((resolve) => el.addEventListener('load', resolve, { once: true }))
    return el.naturalWidth
  })
  assert.ok(width > 0, `image ${await img.getAttribute('src')} did not load`)
}

async function openPageSettings(page: Page) {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  // The dashboard's setup checklist leads a new school to its page settings (issue 23 item 2).
  await page.getByRole('link', { name: /Complete your page settings/ }).click()
  await expectUrl(page, host, '/home/settings/page')
  await expectText(heading(page), 'Page settings')
  return { school, host }
}

browserTest('an owner uploads a compressed cover and an avatar, and the school shows them', async ({ page }) => {
  const { school, host } = await openPageSettings(page)
  // Playwright does not expose Blob bodies, and a PUT's Content-Length is not always among the
  // headers it reports. The size the page declared to /home/images/create is signed into the
  // presigned URL (X-Amz-SignedHeaders=content-length): storage answers 200 only to a body of
  // exactly that size, so the declared size and the PUT's 200 together are the size sent.
  const puts: Array<{ url: string; status: Promise<number> }> = []
  const declared: number[] = []
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts.push({ url: request.url(), status: request.response().then((r) => r?.status() ?? 0) })
    if (request.method() === 'POST' && request.url().endsWith('/home/images/create')) declared.push(Number(request.postDataJSON()?.size ?? 0))
  })

  const original = statSync(fixtures.bigPhoto).size
  assert.ok(original > 4.5 * 1024 * 1024, 'the fixture is a ~5 MB photo')
  await fileInput(page, 'coverPath').setInputFiles(fixtures.bigPhoto)
  await expectText(uploader(page, 'coverPath').getByRole('status'), 'Image uploaded. Save the page to use it.', 60_000)
  assert.equal(puts.length, 1, 'one PUT to the presigned URL')
  assert.equal(declared.length, 1, 'one upload declared')
  const sent = declared[0]!
  assert.ok(sent > 0 && sent < original, `compressed before upload (${sent} < ${original})`)
  assert.match(puts[0].url, /X-Amz-SignedHeaders=[^&]*content-length/, 'the size is signed into the URL')
  assert.equal(await puts[0].status, 200, 'storage took a body of the declared size')
  assert.ok(!puts[0].url.startsWith(url(host, '/')), 'the bytes go to storage, not through the app')

  await fileInput(page, 'avatarPath').setInputFiles(fixtures.avatar)
  await expectText(uploader(page, 'avatarPath').getByRole('status'), 'Image uploaded. Save the page to use it.', 30_000)
  await snap(page, 'page-settings-uploaded')

  await page.getByRole('button', { name: 'Save changes' }).click()
  await expectText(page.getByRole('status').filter({ hasText: 'Changes saved' }), 'Changes saved')
  await imageLoaded(uploader(page, 'coverPath').locator('img[data-image-preview="served"]'))
  await imageLoaded(uploader(page, 'avatarPath').locator('img[data-image-preview="served"]'))
  await imageLoaded(page.locator('header img[data-school-avatar]'))
  await snap(page, 'page-settings-saved')

  await visit(page, url(host, '/'))
  await expectText(heading(page), `Welcome to ${school.name}`)
  await imageLoaded(page.locator('img[data-school-cover]'))
  await imageLoaded(page.locator('header img[data-school-avatar]'))
  await snap(page, 'school-home-with-cover')
})

browserTest('uploads a user cannot make show why', async ({ page }) => {
  await openPageSettings(page)
  const cases: Array<[string, string, string]> = [
    ['an .exe renamed .jpg', fixtures.exeNamedJpg, 'This file cannot be uploaded: its contents are not an allowed file type.'],
    ['a 0-byte file', fixtures.empty, 'The file is empty.'],
    ['a PNG renamed .gif', fixtures.pngNamedGif, 'The contents of this file do not match its extension.'],
    ['an SVG with a script', fixtures.svgWithScript, 'This SVG contains scripts'],
    ['a GIF over the avatar limit', fixtures.hugeGif, 'Max size: 2 MB'],
  ]
  for (const [what, file, message] of cases) {
    await fileInput(page, 'avatarPath').setInputFiles(file)
    await expectText(uploader(page, 'avatarPath').getByRole('alert'), message, 30_000).catch((error: Error) => {
      error.message = `${what}: ${error.message}`
      throw error
    })
  }
  // The wrong extension is refused before anything is sent.
  await fileInput(page, 'avatarPath').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
  await expectText(uploader(page, 'avatarPath').getByRole('alert'), 'Bad file extension')
  await snap(page, 'page-settings-refused')
  // Nothing was kept: saving leaves the school without an avatar.
  assert.equal(await uploader(page, 'avatarPath').locator('input[type="hidden"]').inputValue(), '')
})

browserTest('an upload shows its progress and can be cancelled', async ({ page }) => {
  await openPageSettings(page)
  // Hold the PUT to storage so the upload stays in flight.
  // The progress bar shows as soon as the PUT starts; the route handler may run a moment later.
  let held = false
  let putHeld!: () => void
  const putReached = new Promise<void>((resolve) => (putHeld = resolve))
  await page.route(
    (u) => u.port !== '' && !u.hostname.startsWith('e2e-'),
    async (route) => {
      if (route.request().method() !== 'PUT') return route.continue()
      held = true
      putHeld()
    },
  )
  await fileInput(page, 'avatarPath').setInputFiles(fixtures.avatar)
  const progress = uploader(page, 'avatarPath').getByRole('progressbar', { name: 'Upload progress' })
  await progress.waitFor({ state: 'visible' })
  assert.equal(await progress.getAttribute('aria-valuenow'), '0')
  await expectText(uploader(page, 'avatarPath').getByRole('status'), 'Uploading… 0%')
  await Promise.race([putReached, new Promise((resolve) => setTimeout(resolve, 10_000))])
  assert.ok(held, 'the PUT reached storage')
  await uploader(page, 'avatarPath').getByRole('button', { name: 'Cancel upload' }).click()
  await expectText(uploader(page, 'avatarPath').getByRole('status'), 'Upload cancelled.')
  assert.equal(await progress.count(), 0)
  assert.equal(await uploader(page, 'avatarPath').locator('input[type="hidden"]').inputValue(), '')
  await snap(page, 'page-settings-cancelled')

  // Drag and drop works as well as the file chooser.
  await page.unrouteAll({ behavior: 'ignoreErrors' })
  const png = readFileSync(fixtures.avatar).toString('base64')
  const dataTransfer = await page.evaluateHandle((b64) => {
    const transfer = new DataTransfer()
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
    transfer.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }))
    return transfer
  }, png)
  await uploader(page, 'avatarPath').locator('[data-drop-zone]').dispatchEvent('drop', { dataTransfer })
  await expectText(uploader(page, 'avatarPath').getByRole('status'), 'Image uploaded. Save the page to use it.', 30_000)
  assert.match(await uploader(page, 'avatarPath').locator('input[type="hidden"]').inputValue(), /^tenants\/[a-z0-9_-]+\/avatar\/[a-z2-7]{26}\.png$/)
})

browserTest(
  'in Polish the upload texts and size limits are translated',
  async ({ page }) => {
    const school = newSchool('pl')
    const host = subdomain(school.slug)
    await signUp(page, school)
    await expectUrl(page, host, '/home')
    await visit(page, url(host, '/home/settings/page'))
    await expectText(heading(page), 'Ustawienia strony')
    await fileInput(page, 'avatarPath').setInputFiles(fixtures.hugeGif)
    await expectText(uploader(page, 'avatarPath').getByRole('alert'), 'Maksymalny rozmiar: 2 MB')
    await page.waitForTimeout(500) // the file read that would feed a preview finishes after the refusal
    assert.equal(await uploader(page, 'avatarPath').locator('img').count(), 0, 'a refused image is not previewed')
    await expectText(uploader(page, 'coverPath').locator('p').first(), 'do 5 MB')
    await snap(page, 'page-settings-pl')
  },
  { locale: 'pl-PL' },
)

browserTest(
  'without JavaScript the page explains that uploading needs it',
  async ({ page }) => {
    const { host } = await (async () => {
      // Sign up needs no script; the settings page must still render.
      const school = newSchool('en')
      const h = subdomain(school.slug)
      await signUp(page, school)
      await expectUrl(page, h, '/home')
      return { host: h }
    })()
    await visit(page, url(host, '/home/settings/page'))
    await expectText(heading(page), 'Page settings')
    // innerText, not hasText: Playwright's text matching skips <noscript> even with scripts off.
    assert.match(await page.locator('main').innerText(), /Uploading images needs JavaScript/)
    assert.equal(await uploader(page, 'coverPath').locator('input[type="file"]').isDisabled(), true)
  },
  { javaScriptEnabled: false },
)
