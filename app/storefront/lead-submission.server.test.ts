import { describe, expect, it } from 'vitest'
import { leadFormProps } from '#app/domain/blocks.ts'
import { buildLeadSchema, leadNotificationEmail, parseLead } from './lead-submission.server.ts'

const props = leadFormProps.parse({
  fields: [
    { label: 'First name', name: 'name', type: 'text', required: true },
    { label: 'Email', name: 'email', type: 'email', required: true },
    { label: 'Work email', name: 'work_email', type: 'email' },
    { label: 'Plan', name: 'plan', type: 'radio', required: true, options: [{ value: 'a', text: 'A' }, { value: 'b', text: 'B' }] },
    { label: 'Level', name: 'level', type: 'select', options: [{ value: 'x', text: 'X' }] },
    { label: 'News', name: 'news', type: 'checkbox' },
    { label: 'Terms', name: 'terms', type: 'checkbox', required: true },
    { label: 'Note', name: 'note', type: 'textarea' },
  ],
  hiddenFields: [{ name: 'campaign', value: 'spring' }],
})
const ok = { name: ' Ann ', email: 'ann@example.com', plan: 'a', terms: 'on' }

describe('buildLeadSchema / parseLead', () => {
  it('accepts the configured fields: trims, checkboxes to booleans, hidden values from the config', () => {
    const result = parseLead(props, { ...ok, block_id: 'b1', campaign: 'forged', news: 'on' })
    expect(result).toEqual({
      ok: true,
      email: 'ann@example.com',
      name: 'Ann',
      values: { name: 'Ann', email: 'ann@example.com', work_email: '', plan: 'a', level: '', news: true, terms: true, note: '', campaign: 'spring' },
    })
    // JSON bodies may send real booleans.
    expect(parseLead(props, { ...ok, terms: true, news: false })).toMatchObject({ ok: true, values: { terms: true, news: false } })
  })

  it('refuses unknown field names with 400', () => {
    expect(parseLead(props, { ...ok, role: 'admin' })).toEqual({ ok: false, status: 400, errors: { role: 'widgets.lead.unknown_field' } })
  })

  it('marks missing required fields, bad emails, values off the list and over-long values (422)', () => {
    const result = parseLead(props, { name: '  ', email: 'a@b', work_email: 'nope', plan: 'c', level: 'y', note: 'x'.repeat(10_000) })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.status).toBe(422)
    expect(result.errors).toEqual({
      name: 'validation.required',
      email: 'validation.email',
      work_email: 'validation.email',
      plan: 'validation.in',
      level: 'validation.in',
      terms: 'validation.required',
      note: 'validation.max_chars',
    })
    expect(parseLead(props, { ...ok, name: 'x'.repeat(1001) })).toMatchObject({ ok: false, errors: { name: 'validation.max_chars' } })
    expect(parseLead(props, { ...ok, name: 'x'.repeat(1000) })).toMatchObject({ ok: true })
    expect(parseLead(props, { ...ok, email: 'ann @example.com' })).toMatchObject({ ok: false, errors: { email: 'validation.email' } })
  })

  it('refuses non-string values', () => {
    expect(buildLeadSchema(props).safeParse({ ...ok, name: { $gt: '' } }).success).toBe(false)
    expect(buildLeadSchema(props).safeParse({ ...ok, note: ['a', 'b'] }).success).toBe(false)
  })
})

describe('leadNotificationEmail', () => {
  it('escapes every value and speaks the school’s language', () => {
    const mail = leadNotificationEmail({ locale: 'pl', school: 'Akademia', page: '/p/oferta', to: 'o@x.pl', email: 'a@b.pl', values: { name: '<img src=x onerror=alert(1)>', ok: true }, url: 'http://x/home/leads' })
    expect(mail.subject).toBe('Nowy kontakt w Akademia: a@b.pl')
    expect(mail.html).not.toContain('<img')
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(mail.text).toContain('name: <img src=x onerror=alert(1)>')
  })
})
