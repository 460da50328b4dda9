// Demo schools at their platform subdomain and custom domain, each in its own language;
// unknown hosts get the "no school here" page.
import assert from 'node:assert/strict'
import {
  browserTest,
  demoSchool,
  demoUser,
  documentInfo,
  expectText,
  expectUrl,
  heading,
  logIn,
  snap,
  subdomain,
  url,
  visit,
  type DemoSchool,
} from './support.ts'

const ui = {
  pl: { welcome: 'Witamy w', login: 'Zaloguj się', register: 'Załóż konto', loginTitle: 'Logowanie', hello: 'Cześć', courses: 'Kursy', other: 'Log in' },
  en: { welcome: 'Welcome to', login: 'Log in', register: 'Sign up', loginTitle: 'Log in', hello: 'Hello', courses: 'Courses', other: 'Zaloguj się' },
} as const

const schools: DemoSchool[] = [demoSchool('akademia-kasi'), demoSchool('code-academy')]

for (const school of schools) {
  const text = ui[school.language]
  const hosts = [subdomain(school.slug), ...school.customDomains]
  assert.ok(school.customDomains.length > 0, `${school.slug} declares a custom domain`)

  for (const host of hosts) {
    browserTest(`${school.name} is served at ${host} in ${school.language === 'pl' ? 'Polish' : 'English'}`, async ({ page }) => {
      await visit(page, url(host, '/'))
      assert.equal((await documentInfo(page)).lang, school.language)
      await expectText(heading(page), `${text.welcome} ${school.name}`)
      const nav = page.getByRole('navigation')
      await expectText(nav.getByRole('link'), text.courses)
      assert.equal(await nav.getByRole('link', { name: text.other, exact: true }).count(), 0, `no ${text.other} on a ${school.language} page`)
      await snap(page, `${host}-home`)

      await nav.getByRole('link', { name: text.login, exact: true }).click()
      await expectUrl(page, host, '/login')
      await expectText(heading(page), text.loginTitle)
      await expectText(page.locator('main form button[type="submit"]'), text.login)
      assert.match((await documentInfo(page)).title, new RegExp(school.name))
      await snap(page, `${host}-login`)
    })
  }

  const custom = school.customDomains[0]
  const student = school.users.find((u) => u.role === 'student')!
  browserTest(`a student of ${school.name} signs in at the custom domain ${custom}`, async ({ page }) => {
    await logIn(page, custom, student.email, student.password)
    await expectUrl(page, custom, '/panel')
    await expectText(heading(page), `${text.hello}, ${student.name}!`)
  })
}

browserTest('the school owner sees the instructor panel in the school language', async ({ page }) => {
  const school = demoSchool('akademia-kasi')
  const owner = demoUser(school, 'owner')
  await logIn(page, subdomain(school.slug), owner.email, owner.password)
  await expectUrl(page, subdomain(school.slug), '/home')
  await expectText(heading(page), 'Panel instruktora')
  await expectText(page.locator('main'), `${school.customDomains[0]}:`)
  await snap(page, 'akademia-kasi-home')
})

for (const host of ['nobody.localhost', 'nobody.test']) {
  browserTest(`an unknown host (${host}) shows "No school at this address"`, async ({ page }) => {
    await visit(page, url(host, '/'), 404)
    await expectText(heading(page), 'No school at this address')
    await expectText(page.locator('main'), host)
    await visit(page, url(host, '/login'), 404)
    await snap(page, `unknown-${host}`)
  })
}
