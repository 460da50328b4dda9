// Settings that did nothing (issue 23 §11): the public contact e-mail on the storefront, the
// Classic/Minimal/Bold templates on the school's pages with a staff-only preview that never reaches
// the visitors' page cache, and the school's access switches saved from the page settings.
import { beforeAll, describe, expect, it } from 'vitest'
import { getPageSettings } from '#app/models/page-settings.server.ts'
import { getSchoolAccess } from '#app/models/tenant.server.ts'
import { appFetch, createTestSchool, createTestStudent, login, type TestSchool, control, dbs } from '#tests/factories.ts'

const settingsForm = (fields: Record<string, string> = {}) => ({
  avatarPath: '',
  coverPath: '',
  name: 'Settings School',
  language: 'en',
  template: 'classic',
  authorName: '',
  bio: '',
  contactEmail: '',
  customJs: '',
  conversionCode: '',
  ...fields,
})
const templateOf = (html: string) => /<body[^>]*data-template="([a-z]+)"/.exec(html)?.[1] ?? null

let school: TestSchool
let owner: string
let student: string

async function save(fields: Record<string, string>) {
  const res = await appFetch(school.host, '/home/settings/page', { form: settingsForm(fields), cookie: owner })
  expect(res.status, await res.clone().text().then((t) => t.slice(0, 200))).toBe(302)
}

beforeAll(async () => {
  school = await createTestSchool({ name: 'Settings School' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  const s = await createTestStudent(school.tenantId)
  student = await login(school.host, s.email, s.password)
})

describe('public contact e-mail', () => {
  it('is shown as a mailto link on the school pages and the student panel once set', async () => {
    await save({ contactEmail: '' })
    expect(await (await appFetch(school.host, '/')).text()).not.toContain('data-contact-email')
    await save({ contactEmail: 'Help@Example.com' })
    for (const [path, cookie] of [['/', undefined], ['/courses', undefined], ['/panel', student]] as const) {
      const res = await appFetch(school.host, path, { cookie })
      expect(res.status, path).toBe(200)
      const html = await res.text()
      expect(html, path).toMatch(/<a href="mailto:help@example.com"[^>]*data-contact-email[^>]*>Contact: help@example.com<\/a>/)
    }
  })

  it('puts an "Account" link in the school header for signed-in users only', async () => {
    expect(await (await appFetch(school.host, '/courses', { cookie: student })).text()).toMatch(/<a[^>]*href="\/account"[^>]*>Account<\/a>/)
    expect(await (await appFetch(school.host, '/courses')).text()).not.toContain('href="/account"')
  })
})

describe('templates', () => {
  it("puts the saved template on the school's public pages, never on the panel", async () => {
    for (const template of ['classic', 'minimal', 'bold']) {
      await save({ template })
      for (const path of ['/', '/courses']) {
        const res = await appFetch(school.host, path)
        expect(res.status).toBe(200)
        expect(templateOf(await res.text()), `${template} ${path}`).toBe(template)
      }
      const panel = await appFetch(school.host, '/home/settings/page', { cookie: owner })
      const html = await panel.text()
      expect(templateOf(html)).toBeNull()
      // The preview links of the settings page open the school home in each template.
      expect(html).toContain('href="/?preview-template=bold"')
    }
  })

  it('previews a template for staff only, and the preview never reaches the visitors’ cached page', async () => {
    await save({ template: 'minimal' })
    const url = '/?preview-template=bold'
    // A visitor's request of the preview URL gets (and stores) the saved template.
    const visitor = await appFetch(school.host, url)
    const visitorHtml = await visitor.text()
    expect(templateOf(visitorHtml)).toBe('minimal')
    expect(visitorHtml).not.toContain('data-template-preview=')
    expect(visitor.headers.get('X-Page-Cache')).toBe('miss')
    // Staff see the preview, with its banner, on a page that is neither read from nor stored in the cache.
    const staff = await appFetch(school.host, url, { cookie: owner })
    expect(staff.status).toBe(200)
    const staffHtml = await staff.text()
    expect(templateOf(staffHtml)).toBe('bold')
    expect(staffHtml).toContain('data-template-preview="bold"')
    expect(staff.headers.get('X-Page-Cache')).toBeNull()
    expect(staff.headers.get('Cache-Control') ?? '').not.toMatch(/s-maxage/)
    // Students and unknown templates: the saved one.
    expect(templateOf(await (await appFetch(school.host, url, { cookie: student })).text())).toBe('minimal')
    expect(templateOf(await (await appFetch(school.host, '/?preview-template=fancy', { cookie: owner })).text())).toBe('minimal')
    // The visitors' copy is still the saved template.
    const again = await appFetch(school.host, url)
    expect(again.headers.get('X-Page-Cache')).toMatch(/^hit/)
    expect(templateOf(await again.text())).toBe('minimal')
    expect(templateOf(await (await appFetch(school.host, '/')).text())).toBe('minimal')
  })
})

describe('school access switches', () => {
  it('saves login, registration and simplified checkout switches, and shows them checked', async () => {
    expect(await getSchoolAccess(control(), school.tenantId)).toEqual({ loginDisabled: false, registrationDisabled: false, simplifiedCheckout: false })
    await save({ loginDisabled: 'on', registrationDisabled: 'on', simplifiedCheckout: 'on' })
    expect(await getSchoolAccess(control(), school.tenantId)).toEqual({ loginDisabled: true, registrationDisabled: true, simplifiedCheckout: true })
    const html = await (await appFetch(school.host, '/home/settings/page', { cookie: owner })).text()
    for (const name of ['loginDisabled', 'registrationDisabled', 'simplifiedCheckout']) expect(html, name).toMatch(new RegExp(`name="${name}"[^>]*checked`))
    expect(html).toContain('Login temporarily disabled')
    expect(html).toContain('Registration temporarily disabled')
    // Unchecked boxes are not sent: off again.
    await save({ registrationDisabled: 'on' })
    expect(await getSchoolAccess(control(), school.tenantId)).toEqual({ loginDisabled: false, registrationDisabled: true, simplifiedCheckout: false })
  })

  it('refuses a bad switch value with a field error and writes nothing', async () => {
    await save({ template: 'classic', simplifiedCheckout: 'on' })
    const [settings, access] = [await getPageSettings(dbs(), school.tenantId), await getSchoolAccess(control(), school.tenantId)]
    const res = await appFetch(school.host, '/home/settings/page', { form: settingsForm({ name: 'Changed', template: 'bold', loginDisabled: 'yes' }), cookie: owner })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toMatch(/name="loginDisabled"[^>]*aria-invalid="true"/)
    expect(html).toContain('data-field-error="loginDisabled"')
    expect(await getPageSettings(dbs(), school.tenantId)).toEqual(settings)
    expect(await getSchoolAccess(control(), school.tenantId)).toEqual(access)
  })

  it('is a staff setting: students get 404 and change nothing', async () => {
    const before = await getSchoolAccess(control(), school.tenantId)
    expect((await appFetch(school.host, '/home/settings/page', { form: settingsForm({ loginDisabled: 'on' }), cookie: student })).status).toBe(404)
    expect(await getSchoolAccess(control(), school.tenantId)).toEqual(before)
  })
})
