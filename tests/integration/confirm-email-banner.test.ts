// Issue 19 §4: an owner who has not confirmed the address they signed up with sees it on /home and
// can have the link sent again — fixed platform text only, at most 3 an hour; once confirmed, the
// banner is gone. Schools made before confirmations existed see nothing.
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { emailOutbox } from '#app/db/schema.server.ts'
import { consumeSignupConfirmation, createSignupConfirmation } from '#app/models/signup-confirmation.server.ts'
import { appFetch, createTestSchool, db, login, control } from '#tests/factories.ts'

const confirmationMails = async (tenantId: string, to: string) =>
  (await db().select().from(emailOutbox).where(and(eq(emailOutbox.tenantId, tenantId), eq(emailOutbox.toAddress, to)))).filter((m) => m.template === 'signup_confirmation')

describe('/home: confirming the owner’s e-mail', () => {
  it('shows the banner until confirmed, resends the link three times an hour, in Polish on a Polish school', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const token = await createSignupConfirmation(db(), school.tenantId, school.owner.id)
    const cookie = await login(school.host, school.owner.email, school.owner.password)
    const home = await (await appFetch(school.host, '/home', { cookie })).text()
    expect(home).toContain('data-confirm-email')
    expect(home).toContain(`Wysłaliśmy link potwierdzający na adres ${school.owner.email}`)

    for (let i = 0; i < 3; i++) {
      const sent = await appFetch(school.host, '/home/confirm-email', { method: 'POST', cookie, form: {} })
      expect(sent.headers.get('Location')).toBe('/home?confirm=sent')
    }
    const mails = await confirmationMails(school.tenantId, school.owner.email)
    expect(mails).toHaveLength(3)
    // Fixed platform text: nothing the creator typed (school name) goes to an unconfirmed address.
    for (const m of mails) {
      expect(m.textBody).not.toContain(school.slug)
      expect(m.textBody).toMatch(/\/signup\/confirm\?token=/)
    }
    const limited = await appFetch(school.host, '/home/confirm-email', { method: 'POST', cookie, form: {} })
    expect(limited.headers.get('Location')).toBe('/home?confirm=limited')
    expect(await confirmationMails(school.tenantId, school.owner.email)).toHaveLength(3)
    expect(await (await appFetch(school.host, '/home?confirm=limited', { cookie })).text()).toContain('Link był już wysyłany kilka razy')

    // Confirmed (the first link still works): no banner, and the button does nothing more.
    expect(await consumeSignupConfirmation(control(), [db()], token)).not.toBeNull()
    expect(await (await appFetch(school.host, '/home', { cookie })).text()).not.toContain('data-confirm-email')
    expect((await appFetch(school.host, '/home/confirm-email', { method: 'POST', cookie, form: {} })).headers.get('Location')).toBe('/home')
  })

  it('shows nothing to a school made before confirmations, and refuses visitors', async () => {
    const school = await createTestSchool({ language: 'en' })
    const cookie = await login(school.host, school.owner.email, school.owner.password)
    expect(await (await appFetch(school.host, '/home', { cookie })).text()).not.toContain('data-confirm-email')
    const anonymous = await appFetch(school.host, '/home/confirm-email', { method: 'POST', form: {} })
    expect(anonymous.headers.get('Location')).toMatch(/^\/login/)
    expect(await confirmationMails(school.tenantId, school.owner.email)).toHaveLength(0)
  })
})
