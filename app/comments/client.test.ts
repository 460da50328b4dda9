import { describe, expect, it } from 'vitest'
import { firstError, mentionOf, sendState } from './client.ts'

describe('comment client helpers', () => {
  it('hides Send for empty text and disables it below 2 characters', () => {
    expect(sendState('')).toBe('hidden')
    expect(sendState('a')).toBe('disabled')
    expect(sendState('  a  ')).toBe('disabled')
    expect(sendState('ab')).toBe('enabled')
  })

  it('prefills replies with an @mention of the author', () => {
    expect(mentionOf('Sam Student')).toBe('@Sam Student ')
    expect(mentionOf('  ')).toBe('')
  })

  it('reads the first server message of a field, then the message', () => {
    expect(firstError({ errors: { body: ['Too long', 'other'] }, message: 'x' }, 'body')).toBe('Too long')
    expect(firstError({ message: 'Already converted' }, 'body')).toBe('Already converted')
    expect(firstError({}, 'body')).toBeNull()
  })
})
