// Recent searches of the course search modal (seed 000 §3, §4, §9): a list of strings in browser
// storage under `recent_searches`, at most 10, unique case-insensitively, most recent first, and
// saved only after a successful search. Storage errors are ignored (§8). Pure list rules + a thin
// storage wrapper so the rules are unit-tested without a browser.

export const RECENT_SEARCHES_KEY = 'recent_searches'
export const RECENT_SEARCHES_MAX = 10
/** Seed 000 §9: search pause and the delay before the loading indicator is cleared. */
export const SEARCH_DEBOUNCE_MS = 500
export const SEARCH_LOADING_CLEAR_MS = 100
export const SEARCH_QUERY_MAX = 100

/** Put `term` first, drop earlier case-insensitive duplicates, keep at most 10. Blank terms change nothing. */
export function addRecentSearch(list: readonly string[], term: string, max = RECENT_SEARCHES_MAX): string[] {
  const q = term.trim()
  if (!q) return list.slice(0, max)
  const key = q.toLocaleLowerCase()
  return [q, ...list.filter((item) => item.toLocaleLowerCase() !== key)].slice(0, max)
}

/** Whatever storage holds → a clean list (strings only, trimmed, deduplicated, capped). */
export function parseRecentSearches(raw: string | null | undefined, max = RECENT_SEARCHES_MAX): string[] {
  if (!raw) return []
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return []
  }
  if (!Array.isArray(value)) return []
  const out: string[] = []
  for (const item of value) {
    if (typeof item !== 'string') continue
    const q = item.trim().slice(0, SEARCH_QUERY_MAX)
    if (q && !out.some((x) => x.toLocaleLowerCase() === q.toLocaleLowerCase())) out.push(q)
    if (out.length >= max) break
  }
  return out
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>

export function loadRecentSearches(storage: StorageLike | null | undefined): string[] {
  try {
    return parseRecentSearches(storage?.getItem(RECENT_SEARCHES_KEY))
  } catch {
    return []
  }
}

/** Saves the term and returns the new list; a storage failure is ignored (the list still updates). */
export function saveRecentSearch(storage: StorageLike | null | undefined, term: string): string[] {
  const next = addRecentSearch(loadRecentSearches(storage), term)
  try {
    storage?.setItem(RECENT_SEARCHES_KEY, JSON.stringify(next))
  } catch {
    /* quota or privacy mode: ignored (seed 000 §8) */
  }
  return next
}
