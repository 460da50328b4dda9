import { describe, expect, it } from 'vitest'
import { addRecentSearch, loadRecentSearches, parseRecentSearches, RECENT_SEARCHES_KEY, saveRecentSearch } from './recent-searches.ts'

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial))
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) }
}

describe('recent searches', () => {
  it('puts the newest term first and drops case-insensitive duplicates', () => {
    expect(addRecentSearch(['excel', 'Budget'], 'budget')).toEqual(['budget', 'excel'])
    expect(addRecentSearch(['a', 'b'], '  c  ')).toEqual(['c', 'a', 'b'])
    expect(addRecentSearch(['a'], '   ')).toEqual(['a'])
  })

  it('keeps at most 10, dropping the oldest', () => {
    let list: string[] = []
    for (let i = 1; i <= 12; i++) list = addRecentSearch(list, `term ${i}`)
    expect(list).toHaveLength(10)
    expect(list[0]).toBe('term 12')
    expect(list[9]).toBe('term 3')
    expect(list).not.toContain('term 2')
  })

  it('parses only a clean list from storage', () => {
    expect(parseRecentSearches(null)).toEqual([])
    expect(parseRecentSearches('not json')).toEqual([])
    expect(parseRecentSearches('{"a":1}')).toEqual([])
    expect(parseRecentSearches(JSON.stringify(['x', 1, ' X ', '', 'y', null]))).toEqual(['x', 'y'])
    expect(parseRecentSearches(JSON.stringify(Array.from({ length: 15 }, (_, i) => `t${i}`)))).toHaveLength(10)
  })

  it('saves under recent_searches and ignores storage errors', () => {
    const storage = memoryStorage()
    saveRecentSearch(storage, 'excel')
    expect(saveRecentSearch(storage, 'Budget')).toEqual(['Budget', 'excel'])
    expect(JSON.parse(storage.data.get(RECENT_SEARCHES_KEY)!)).toEqual(['Budget', 'excel'])
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('quota')
      },
    }
    expect(loadRecentSearches(broken)).toEqual([])
    expect(saveRecentSearch(broken, 'excel')).toEqual(['excel'])
    expect(loadRecentSearches(null)).toEqual([])
  })
})
