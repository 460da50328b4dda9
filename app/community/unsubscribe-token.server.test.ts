import { describe, expect, it } from 'vitest'
import { signUnsubscribeToken, verifyUnsubscribeToken } from './unsubscribe-token.server.ts'

const KEY = 'Y291cnNlZnJvbnQtZGV2LWludGVncmF0aW9ucy1rZXk='
const OTHER_KEY = 'b3RoZXItZGVwbG95bWVudC1pbnRlZ3JhdGlvbnMta2V5'
const claims = { tenantId: 'tenant1', userId: 'user1', topicId: 'topic1' }

describe('community unsubscribe tokens', () => {
  it('round-trips the school, the student and the topic', async () => {
    const token = await signUnsubscribeToken(KEY, claims)
    expect(token.startsWith('tenant1.user1.topic1.')).toBe(true)
    expect(await verifyUnsubscribeToken(KEY, token)).toEqual(claims)
  })

  it('refuses an altered claim, another key and malformed tokens', async () => {
    const token = await signUnsubscribeToken(KEY, claims)
    const signature = token.split('.')[3]
    expect(await verifyUnsubscribeToken(KEY, `tenant1.user2.topic1.${signature}`)).toBeNull()
    expect(await verifyUnsubscribeToken(KEY, `tenant2.user1.topic1.${signature}`)).toBeNull()
    expect(await verifyUnsubscribeToken(OTHER_KEY, token)).toBeNull()
    for (const bad of ['', 'a.b.c', `${token}.x`, token.replace(/.$/, '!'), 'A.user1.topic1.' + signature]) expect(await verifyUnsubscribeToken(KEY, bad)).toBeNull()
  })

  it('accepts only the canonical spelling: the unused bits of the last character change nothing else', async () => {
    // Many claims, so the signatures end in every canonical character class at least once.
    for (let i = 0; i < 40; i++) {
      const token = await signUnsubscribeToken(KEY, { ...claims, topicId: `topic${i}` })
      const last = token.at(-1)!
      const aliases = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
      const index = aliases.indexOf(last)
      expect(index % 4).toBe(0)
      for (let bits = 1; bits < 4; bits++) expect(await verifyUnsubscribeToken(KEY, token.slice(0, -1) + aliases[index + bits])).toBeNull()
      expect(await verifyUnsubscribeToken(KEY, token)).not.toBeNull()
    }
  })
})
