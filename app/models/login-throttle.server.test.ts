import { describe, expect, it } from 'vitest'
import { dbs } from '#tests/factories.ts'
import { clearLoginFailures, lockoutSecondsLeft, recordLoginFailure, throttleKey } from './login-throttle.server.ts'

describe('login throttle', () => {
  it('locks a key for 60 s at the fifth failure within a minute', async () => {
    const key = throttleKey('A@Example.com', '1.2.3.4')
    expect(key).toBe('a@example.com|1.2.3.4')
    const t0 = 1_000_000
    for (let i = 0; i < 4; i++) expect(await recordLoginFailure(dbs(), 'tenant-x', key, t0 + i * 1000)).toBe(0)
    expect(await recordLoginFailure(dbs(), 'tenant-x', key, t0 + 4000)).toBe(60)
    expect(await lockoutSecondsLeft(dbs(), 'tenant-x', key, t0 + 4000 + 15_500)).toBe(45)
    expect(await lockoutSecondsLeft(dbs(), 'tenant-x', key, t0 + 4000 + 60_000)).toBe(0)
  })

  it('starts counting again after the window, per school and per key', async () => {
    const key = throttleKey('b@example.com', '5.6.7.8')
    const t0 = 2_000_000
    for (let i = 0; i < 4; i++) await recordLoginFailure(dbs(), 'tenant-y', key, t0)
    // A minute later the old failures no longer count.
    expect(await recordLoginFailure(dbs(), 'tenant-y', key, t0 + 61_000)).toBe(0)
    // Another school's counter is separate.
    expect(await lockoutSecondsLeft(dbs(), 'tenant-z', key, t0)).toBe(0)
    await clearLoginFailures(dbs(), 'tenant-y', key)
    expect(await lockoutSecondsLeft(dbs(), 'tenant-y', key, t0 + 61_000)).toBe(0)
  })
})
