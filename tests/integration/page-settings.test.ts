// Page settings (issue 5 §6) and the creator's scripts (ADR 013): stored through /home/settings/page,
// put with the response's nonce on the school's public pages only, never on /home, the panels,
// sign-in pages or the platform, and never for the school's staff.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { getPageSettings, updatePageSettings } from '#app/models/page-settings.server.ts'
import { allowsCreatorScripts, creatorScriptBlocks } from '#app/utils/security.server.ts'
import { appFetch, createTestSchool, createTestStudent, flashOf, followFlash, login, PLATFORM, type TestSchool, dbs } from '#tests/factories.ts'

const location = (res: Response) => res.headers.get('Location') ?? ''
const settingsForm = (fields: Record<string, string> = {}) => ({
  avatarPath: '',
  coverPath: '',
  name: 'My School',
  language: 'en',
  template: 'classic',
  authorName: '',
  bio: '',
  contactEmail: '',
  customJs: '',
  conversionCode: '',
  ...fields,
})

const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get('Content-Security-Policy') ?? '')?.[1] ?? ''
const scriptSrc = (res: Response) => /script-src [^;]*/.exec(res.headers.get('Content-Security-Policy') ?? '')?.[0] ?? ''

let school: TestSchool
let owner: string
let student: string

beforeAll(async () => {
  school = await createTestSchool({ name: 'Before' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  const s = await createTestStudent(school.tenantId)
  student = await login(school.host, s.email, s.password)
})

describe('/home/settings/page', () => {
  it('shows every setting to the owner; students 404', async () => {
    const res = await appFetch(school.host, '/home/settings/page', { cookie: owner })
    expect(res.status).toBe(200)
    const html = await res.text()
    for (const name of ['name', 'language', 'template', 'authorName', 'bio', 'contactEmail', 'customJs', 'conversionCode', 'notify_lead', 'notify_registration', 'avatarPath', 'coverPath']) expect(html, name).toContain(`name="${name}"`)
    expect((await appFetch(school.host, '/home/settings/page', { cookie: student })).status).toBe(404)
    expect((await appFetch(school.host, '/home/settings/page', { form: settingsForm({ name: 'By a student' }), cookie: student })).status).toBe(404)
  })

  it('refuses bad values with field errors and writes nothing', async () => {
    const before = await getPageSettings(dbs(), school.tenantId)
    const cases: Array<[Record<string, string>, string]> = [
      [{ contactEmail: 'not-an-email' }, 'Provide a valid email address'],
      [{ name: '' }, 'This field is required'],
      [{ name: 'x'.repeat(71) }, 'May not be longer than 70 characters'],
      [{ authorName: 'x'.repeat(71) }, 'May not be longer than 70 characters'],
      [{ bio: 'x'.repeat(2001) }, 'May not be longer than 2000 characters'],
      [{ template: 'fancy' }, 'Choose one of the options'],
      [{ language: 'de' }, 'Choose one of the options'],
      [{ customJs: 'x'.repeat(10_001) }, 'May not be longer than 10000 characters'],
    ]
    for (const [fields, text] of cases) {
      const res = await appFetch(school.host, '/home/settings/page', { form: settingsForm({ ...fields, authorName: fields.authorName ?? 'Echoed', bio: fields.bio ?? 'b'.repeat(900) }), cookie: owner })
      expect(res.status, JSON.stringify(fields).slice(0, 60)).toBe(400)
      const html = await res.text()
      expect(html, JSON.stringify(fields).slice(0, 60)).toContain(text)
      if (!fields.bio) expect(html).toContain('b'.repeat(900)) // the whole bio comes back
    }
    // An image of another school: 422, and nothing else is saved either.
    const foreign = `tenants/${(await createTestSchool()).tenantId}/cover/x.png`
    const res = await appFetch(school.host, '/home/settings/page', { form: settingsForm({ coverPath: foreign, name: 'Changed' }), cookie: owner })
    expect(res.status).toBe(422)
    expect(await getPageSettings(dbs(), school.tenantId)).toEqual(before)
  })

  it('saves everything, says "Changes saved" and the school shows the new name at once', async () => {
    const res = await appFetch(school.host, '/home/settings/page', {
      form: settingsForm({ name: '  After  ', template: 'minimal', authorName: 'Anna Nowak', bio: 'I teach **money**.\r\nLine 2', contactEmail: ' Hello@Example.com ', notify_lead: 'on', notify_transaction: 'on' }),
      cookie: owner,
    })
    expect(res.status).toBe(302)
    expect(location(res)).toBe('/home/settings/page')
    expect(flashOf(res)).toMatchObject({ done: 'saved', message: 'page_settings.saved' })
    expect(await getPageSettings(dbs(), school.tenantId)).toEqual({
      name: 'After',
      language: 'en',
      template: 'minimal',
      authorName: 'Anna Nowak',
      bio: 'I teach **money**.\nLine 2',
      contactEmail: 'hello@example.com',
      customJs: '',
      conversionCode: '',
      notifications: { lead: true, review: false, comment: false, transaction: true, registration: false },
    })
    const page = await (await appFetch(school.host, '/home/settings/page', { cookie: followFlash(owner, res) })).text()
    expect(page).toContain('Changes saved')
    expect(await (await appFetch(school.host, '/')).text()).toContain('After')
    const row = await env.DB_SHARD_0.prepare('SELECT notification_prefs FROM school_settings WHERE tenant_id = ?').bind(school.tenantId).first<{ notification_prefs: string }>()
    expect(JSON.parse(row!.notification_prefs)).toEqual({ lead: true, review: false, comment: false, transaction: true, registration: false })
  })

  it('switches the page language', async () => {
    const res = await appFetch(school.host, '/home/settings/page', { form: settingsForm({ name: 'After', language: 'pl' }), cookie: owner })
    expect(res.status).toBe(302)
    expect(await (await appFetch(school.host, '/home/settings/page', { cookie: followFlash(owner, res) })).text()).toContain('Zmiany zostały zapisane')
    await updatePageSettings(dbs(), school.tenantId, { language: 'en' })
  })
})

describe("the creator's scripts", () => {
  let shop: TestSchool
  let shopOwner: string
  let shopStudent: string
  beforeAll(async () => {
    shop = await createTestSchool()
    shopOwner = await login(shop.host, shop.owner.email, shop.owner.password)
    const s = await createTestStudent(shop.tenantId)
    shopStudent = await login(shop.host, s.email, s.password)
    const res = await appFetch(shop.host, '/home/settings/page', {
      form: settingsForm({ customJs: 'window.__creator = 1 // </script><img src=x onerror=alert(1)>', conversionCode: '<script>window.__conversion = 1</script>' }),
      cookie: shopOwner,
    })
    expect(res.status).toBe(302)
  })

  it("run on the school's public pages with the response's nonce and 'strict-dynamic'", async () => {
    for (const [path, cookie] of [
      ['/', undefined],
      ['/courses', undefined],
      ['/', shopStudent],
    ] as const) {
      const res = await appFetch(shop.host, path, { cookie })
      expect(res.status, path).toBe(200)
      const nonce = nonceOf(res)
      const html = await res.text()
      expect(html, path).toContain(`<script nonce="${nonce}" data-creator-script="true">window.__creator = 1 // <\\/script><img src=x onerror=alert(1)></script>`)
      expect(scriptSrc(res), path).toBe(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`)
      // The conversion code waits for a conversion page (the checkout's, later).
      expect(html).not.toMatch(/<script[^>]*>window\.__conversion/)
    }
  })

  it('never run on /home, the panels, sign-in pages, for staff, or on the platform', async () => {
    const probes: Array<[string, string, string | undefined]> = [
      [shop.host, '/home', shopOwner],
      [shop.host, '/home/settings/page', shopOwner],
      [shop.host, '/home/articles', shopOwner],
      [shop.host, '/HOME/articles', shopOwner],
      [shop.host, '/%68ome', shopOwner],
      [shop.host, '/', shopOwner],
      [shop.host, '/courses', shopOwner],
      [shop.host, '/panel', shopStudent],
      [shop.host, '/login', undefined],
      [shop.host, '/register', undefined],
      [shop.host, '/forgot-password', undefined],
      [shop.host, '/home', shopStudent],
      [PLATFORM, '/', undefined],
      [PLATFORM, '/signup', undefined],
    ]
    for (const [host, path, cookie] of probes) {
      const res = await appFetch(host, path, { cookie })
      const html = await res.text()
      // (The settings page shows the code, escaped, in its text area.)
      expect(html, `${host}${path}`).not.toMatch(/<script[^>]*>window\.__creator/)
      expect(html, `${host}${path}`).not.toContain('data-creator-script')
      expect(scriptSrc(res), `${host}${path}`).not.toContain('strict-dynamic')
    }
  })

  it('another school does not get them', async () => {
    const other = await createTestSchool()
    const res = await appFetch(other.host, '/')
    expect(await res.text()).not.toContain('window.__creator')
    expect(scriptSrc(res)).not.toContain('strict-dynamic')
  })
})

describe('creatorScriptBlocks', () => {
  it('takes plain JavaScript as one inline script that cannot close its element', () => {
    expect(creatorScriptBlocks('  ')).toEqual([])
    expect(creatorScriptBlocks('a() </SCRIPT> <!-- b')).toEqual([{ code: 'a() <\\/SCRIPT> <\\!-- b' }])
  })

  it('takes the <script> tags of a snippet: http(s) sources and inline code; drops other markup', () => {
    const snippet = `<!-- Global site tag -->
<script async src="https://www.googletagmanager.com/gtag/js?id=G-1&amp;l=dataLayer"></script>
<script>
  window.dataLayer = window.dataLayer || [];
</script>
<script src='javascript:alert(1)'></script>
<script src=//cdn.example.com/p.js></script>
<noscript><img src="https://px.example.com/p.gif" onerror="x()"></noscript>`
    expect(creatorScriptBlocks(snippet)).toEqual([
      { src: 'https://www.googletagmanager.com/gtag/js?id=G-1&l=dataLayer' },
      { code: '\n  window.dataLayer = window.dataLayer || [];\n' },
      { src: '//cdn.example.com/p.js' },
    ])
  })

  it('judges the path the router matches', () => {
    for (const path of ['/', '/courses', '/blog/post', '/homework', '/panelists']) expect(allowsCreatorScripts(path), path).toBe(true)
    for (const path of ['/home', '/home/', '/Home/articles', '/%68ome', '//home', '/home.data', '/panel', '/panel/sessions/x', '/login', '/reset-password/t', '/auth/handover', '/files/a/b', '/%E0%A4%A'])
      expect(allowsCreatorScripts(path), path).toBe(false)
  })
})
