// Issue 19 §8: the delivery log page (/home/webhooks/:id) never echoes a stored error text, and for
// a private or loopback target (allowed in development) shows only the outcome class: no status
// code, no duration — also for rows written before the worker capped them. In both languages.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { claimDeliveryAttempt, createWebhook, recordDeliveryAttempt, scheduleTestDelivery } from '#app/models/webhook.server.ts'
import { appFetch, createTestSchool, db, login, type TestSchool } from '#tests/factories.ts'

const KEY = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY

/** A webhook to `url` with one failed attempt stored as given; the owner's view of its log. */
async function logPage(school: TestSchool, url: string, attempt: { statusCode: number | null; durationMs: number; error: string }) {
  const created = await createWebhook(db(), KEY, school.tenantId, { event: 'student.paid', url })
  if (!created.ok) throw new Error('webhook')
  const { delivery } = await scheduleTestDelivery(db(), undefined, school.tenantId, created.webhook)
  await claimDeliveryAttempt(db(), school.tenantId, delivery.id, 0)
  await recordDeliveryAttempt(db(), school.tenantId, delivery.id, { delivered: false, ...attempt })
  const cookie = await login(school.host, school.owner.email, school.owner.password)
  const res = await appFetch(school.host, `/home/webhooks/${created.webhook.id}`, { cookie })
  expect(res.status).toBe(200)
  const html = await res.text()
  const row = /<tr[^>]*data-delivery-row[^>]*>([\s\S]*?)<\/tr>/.exec(html)
  expect(row).not.toBeNull()
  return { html, row: row![1] }
}

const codeCell = (row: string) => /data-delivery-code[^>]*>([^<]*)</.exec(row)?.[1]

describe('delivery log page', () => {
  it('a loopback target: the class only, never the runtime text, the code or the duration (a row stored before the cap)', async () => {
    const school = await createTestSchool()
    const { html, row } = await logPage(school, 'http://127.0.0.1:6379/', { statusCode: 503, durationMs: 4321, error: 'Request failed: TypeError: connect ECONNREFUSED 127.0.0.1:6379' })
    expect(html).not.toContain('ECONNREFUSED')
    expect(row).not.toContain('503')
    expect(row).not.toContain('4321')
    expect(codeCell(row)).toBe('—')
    expect(row).toContain('Connection failed')
  })

  it('a private target answering an error: "HTTP 5xx", not the code', async () => {
    const school = await createTestSchool()
    const { row } = await logPage(school, 'http://10.0.0.5:8080/hook', { statusCode: 502, durationMs: 17, error: 'HTTP 502' })
    expect(row).toContain('Your server answered HTTP 5xx')
    expect(row).not.toContain('502')
    expect(row).not.toContain('17 ms')
  })

  it('a public target keeps its code and duration; the stored text is shown as its message', async () => {
    const school = await createTestSchool()
    const { row } = await logPage(school, 'https://hooks.example.com/coursefront', { statusCode: 503, durationMs: 120, error: 'HTTP 503' })
    expect(codeCell(row)).toBe('503')
    expect(row).toContain('120 ms')
    expect(row).toContain('Your server answered HTTP 503')
  })

  it('an unknown stored text is never echoed: a generic message, in Polish for a Polish school', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const { html, row } = await logPage(school, 'https://hooks.example.com/pl', { statusCode: null, durationMs: 5, error: '<img src=x onerror=alert(1)> internal 10.0.0.9' })
    expect(html).not.toContain('10.0.0.9')
    expect(row).toContain('Doręczenie nie powiodło się')
  })
})
