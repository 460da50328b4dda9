import { describe, expect, it } from 'vitest'
import { appFetch, createTestSchool } from '#tests/factories.ts'

describe('smoke', () => {
  it('serves a school at its subdomain', async () => {
    const school = await createTestSchool({ name: 'Smoke School' })
    const res = await appFetch(school.host, '/')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Smoke School')
  })
})
