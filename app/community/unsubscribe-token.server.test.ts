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
})
