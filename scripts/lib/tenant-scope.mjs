// Tenant scope as a mechanism (issue 20, ADR 025): every drizzle statement on a tenant-owned table
// goes through the one helper in app/models/tenant-scope.server.ts, unless its function is named in
// app/models/cross-tenant.ts with a reason. Pure: give it the files' paths and texts, the
// tenant-owned tables and the allow-list, it returns the violations. Read lexically (comments and
// string texts blanked, parentheses balanced), like scripts/lib/layers.mjs reads imports.
//   where     `.from(T)`, `.update(T)`, `.delete(T)`, `db.query.T.findFirst/findMany(…)` on a
//             tenant-owned T (or an alias() of one) has `ofTenant(T, …)` in its where, not under
//             an `or(…)` or `not(…)`
//   join      a tenant-owned J joined in (`.innerJoin(J, on)` and the other joins) has
//             `ofTenant(J, …)` or `sameTenant(J, other)` in `on`
//   insert    `.insert(T).values({ … })` with a literal object (no spread) names tenantId; other
//             values are typed, and tenantId is a required column of the insert type
//   stale     an allow-list entry names a function that no longer exists
//   unneeded  an allow-listed function has no statement that needs the exemption
//   reason    an allow-list entry without a reason
// A where/on may name a local const or function (in the same file) that holds the helper call:
// its text is read in place of the name, a few levels deep. A module-private function may return
// a statement without its where (a query fragment): then every call of it in the file must chain
// a where with the helper. Raw `sql` texts are not read.

/** The export names of the schema's tables that have a `tenantId` column. */
export function tenantTablesOf(schemaSource) {
  const src = maskSource(schemaSource)
  const tables = new Set()
  for (const m of src.matchAll(/export\s+const\s+(\w+)\s*=\s*sqliteTable\(/g)) {
    const open = src.indexOf('{', m.index + m[0].length)
    if (open < 0) continue
    const columns = src.slice(open, matchingClose(src, open))
    if (/[{,\s]tenantId\s*:/.test(columns)) tables.add(m[1])
  }
  return tables
}

/** `{ '<file>#<function>': '<why>' }` read from the allow-list's source (keys and reasons are string literals). */
export function parseAllowList(source) {
  const list = {}
  const str = `(?:'((?:[^'\\\\]|\\\\.)*)'|"((?:[^"\\\\]|\\\\.)*)")`
  const entry = new RegExp(`${str}\\s*:\\s*(?:${str}|\`([^\`]*)\`)`, 'g')
  for (const m of source.matchAll(entry)) {
    const key = m[1] ?? m[2]
    if (!key.includes('#')) continue
    list[key] = (m[3] ?? m[4] ?? m[5] ?? '').trim()
  }
  return list
}

const isTest = (file) => /\.test\.(ts|tsx|mjs)$/.test(file) || file.startsWith('tests/')
const inScope = (file) => (file.startsWith('app/') || file.startsWith('workers/')) && /\.(ts|tsx)$/.test(file) && !file.endsWith('.d.ts') && !isTest(file)
const JOINS = new Set(['innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'crossJoin'])

/**
 * The violations, each `{ rule, file, fn, line, table }`, sorted. `files`: Map path → source;
 * `tenantTables`: Set of table export names; `allowList`: `{ '<file>#<function>': '<why>' }`.
 */
export function checkTenantScope(files, tenantTables, allowList = {}) {
  const violations = []
  const functionsOf = new Map()
  const exempted = new Map(Object.keys(allowList).map((k) => [k, 0]))
  for (const [file, source] of files) {
    if (!inScope(file)) continue
    const unit = readUnit(source)
    functionsOf.set(file, new Set(unit.regions.map((r) => r.name)))
    const tables = new Set(tenantTables)
    for (const m of unit.src.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*alias\(\s*(\w+)\s*,/g)) if (tenantTables.has(m[2])) tables.add(m[1])
    for (const found of statementProblems(unit, tables)) {
      const fn = unit.regionAt(found.at).name
      const key = `${file}#${fn}`
      if (exempted.has(key)) {
        exempted.set(key, exempted.get(key) + 1)
        continue
      }
      violations.push({ rule: found.rule, file, fn, line: unit.lineAt(found.at), table: found.table })
    }
  }
  for (const [key, reason] of Object.entries(allowList)) {
    const [file, fn] = key.split('#')
    if (!reason) violations.push({ rule: 'reason', file, fn, line: 0, table: '' })
    if (!functionsOf.get(file)?.has(fn)) violations.push({ rule: 'stale', file, fn, line: 0, table: '' })
    else if (exempted.get(key) === 0) violations.push({ rule: 'unneeded', file, fn, line: 0, table: '' })
  }
  const key = (v) => `${v.file}#${v.fn} ${String(v.line).padStart(6, '0')} ${v.rule} ${v.table}`
  return violations.sort((a, b) => key(a).localeCompare(key(b)))
}

export const violationText = (v) =>
  ({
    where: `${v.file}:${v.line} (${v.fn}): a statement on ${v.table} without ofTenant(${v.table}, …) in its where`,
    join: `${v.file}:${v.line} (${v.fn}): ${v.table} joined without ofTenant(${v.table}, …) or sameTenant(${v.table}, …) in the join condition`,
    insert: `${v.file}:${v.line} (${v.fn}): an insert into ${v.table} whose values do not name tenantId`,
    stale: `app/models/cross-tenant.ts: '${v.file}#${v.fn}' names a function that does not exist`,
    unneeded: `app/models/cross-tenant.ts: '${v.file}#${v.fn}' has no cross-tenant statement, take it off the list`,
    reason: `app/models/cross-tenant.ts: '${v.file}#${v.fn}' needs a reason`,
  }[v.rule])

/** Each statement problem of a file: `{ rule, at, table }` (at: offset of the statement's table). */
function statementProblems(unit, tables) {
  const { src } = unit
  const problems = []
  const scoped = (text, at, table, helpers) => {
    const expanded = unit.expand(text, at)
    return helpers.some((h) => [...expanded.matchAll(new RegExp(`\\b${h}\\(\\s*${table}\\s*,`, 'g'))].some((m) => !underOr(expanded, m.index)))
  }
  for (const m of src.matchAll(/\.(from|update|delete|insert)\(\s*(\w+)\s*\)/g)) {
    const [, verb, table] = m
    const at = m.index + m[0].indexOf(table)
    const chain = chainAfter(src, m.index + m[0].length)
    if (verb === 'insert') {
      const values = chain.find((c) => c.method === 'values')
      if (tables.has(table) && values && !literalNamesTenant(values.args)) problems.push({ rule: 'insert', at, table })
      continue
    }
    if (tables.has(table)) {
      const wheres = chain.filter((c) => c.method === 'where')
      const fragment = wheres.length === 0 && unit.fragmentCalls(at)
      if (fragment) {
        // A local function that returns the statement without its where: each caller adds it.
        if (!fragment.every((c) => c.some((w) => w.method === 'where' && scoped(w.args, w.at, table, ['ofTenant'])))) problems.push({ rule: 'where', at, table })
      } else if (!wheres.some((w) => scoped(w.args, w.at, table, ['ofTenant']))) problems.push({ rule: 'where', at, table })
    }
    if (verb !== 'from') continue
    for (const join of chain.filter((c) => JOINS.has(c.method))) {
      const joined = /^\s*(\w+)\s*(?:,|$)/.exec(join.args)?.[1]
      if (!joined || !tables.has(joined)) continue
      const on = join.args.slice(join.args.indexOf(',') + 1)
      const viaSame = new RegExp(`\\bsameTenant\\(\\s*${joined}\\s*,\\s*(?!${joined}\\s*\\))\\w+\\s*\\)`).test(unit.expand(on, join.at))
      if (!viaSame && !scoped(on, join.at, joined, ['ofTenant'])) problems.push({ rule: 'join', at: join.at, table: joined })
    }
  }
  for (const m of src.matchAll(/\.query\.(\w+)\.(findFirst|findMany)\(/g)) {
    const table = m[1]
    if (!tables.has(table)) continue
    const open = m.index + m[0].length - 1
    const args = src.slice(open + 1, matchingClose(src, open) - 1)
    if (!scoped(args, open, table, ['ofTenant'])) problems.push({ rule: 'where', at: m.index + 7, table })
  }
  return problems
}

/** Is the call at `at` an argument of `or(…)` or `not(…)` (then it does not bound the statement)? */
function underOr(text, at) {
  let depth = 0
  for (let i = at - 1; i >= 0; i--) {
    if (')]}'.includes(text[i])) depth++
    else if ('([{'.includes(text[i]) && depth-- === 0) {
      depth = 0
      if (text[i] === '(' && /(?<![\w$.])(or|not)\s*$/.test(text.slice(Math.max(0, i - 10), i))) return true
    }
  }
  return false
}

/** The `.method(args)` calls chained after offset `from`: `{ method, args, at }`. */
function chainAfter(src, from) {
  const calls = []
  let i = from
  for (;;) {
    const m = /^\s*\.\s*([\w$]+)\s*\(/.exec(src.slice(i, i + 200))
    if (!m) return calls
    const open = i + m[0].length - 1
    const close = matchingClose(src, open)
    calls.push({ method: m[1], args: src.slice(open + 1, close - 1), at: open + 1 })
    i = close
  }
}

/** Does a literal values object (or array of them) name tenantId? Non-literal values are left to the types. */
function literalNamesTenant(args) {
  const text = args.trim()
  if (!text.startsWith('{') && !text.startsWith('[')) return true
  const objects = []
  let depth = 0
  let start = -1
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if ('{[('.includes(c)) {
      if (c === '{' && depth === (text.startsWith('[') ? 1 : 0)) start = i
      depth++
    } else if ('}])'.includes(c)) {
      depth--
      if (c === '}' && start >= 0 && depth === (text.startsWith('[') ? 1 : 0)) {
        objects.push(text.slice(start, i + 1))
        start = -1
      }
    }
  }
  if (text.startsWith('[') && objects.length === 0) return true
  return objects.every((o) => /\.\.\./.test(topLevel(o)) || /(?:^|[{,])\s*tenantId\s*(?:[:,}]|$)/.test(topLevel(o)))
}

/** An object literal's text with its nested brackets' contents removed (only its own keys stay). */
function topLevel(objectText) {
  let out = ''
  let depth = 0
  for (const c of objectText) {
    if ('{[('.includes(c)) depth++
    if (depth <= 1) out += c
    if ('}])'.includes(c)) depth--
  }
  return out
}

/** A file read for the checks: masked source, top-level regions (functions), local bindings. */
function readUnit(source) {
  const src = maskSource(source)
  const lineStarts = [0]
  for (let i = 0; i < src.length; i++) if (src[i] === '\n') lineStarts.push(i + 1)
  // Top-level regions: a line at column 0 that starts a declaration or statement opens one.
  const regions = []
  for (const start of lineStarts) {
    const line = src.slice(start, src.indexOf('\n', start) < 0 ? src.length : src.indexOf('\n', start))
    if (!line.trim() || /^[\s})\]]/.test(line) || /^(import|export\s+(type|interface|\*|\{))\b/.test(line)) continue
    const decl = /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:function\s*\*?\s*([\w$]+)|(?:const|let|var|class)\s+([\w$]+))/.exec(line)
    regions.push({ start, name: decl ? decl[1] ?? decl[2] : '<module>' })
  }
  const head = { start: 0, name: '<module>' }
  const regionAt = (at) => {
    let found = head
    for (const r of regions) if (r.start <= at) found = r
    return found
  }
  // Local bindings: `const x = …` (to the end of its expression) and `function x(…) { … }`.
  const bindings = []
  for (const m of src.matchAll(/\b(?:const|let|var)\s+([\w$]+)\s*(?::[^=\n]+)?=(?!=)/g)) bindings.push({ name: m[1], at: m.index, text: expressionAt(src, m.index + m[0].length) })
  for (const m of src.matchAll(/\bfunction\s*\*?\s*([\w$]+)\s*\(/g)) {
    const body = src.indexOf('{', matchingClose(src, m.index + m[0].length - 1))
    bindings.push({ name: m[1], at: m.index, text: body < 0 ? '' : src.slice(m.index, matchingClose(src, body)) })
  }
  /** A where/on text with the local bindings it names read in, a few levels deep. */
  const expand = (text, at, depth = 0, seen = new Set()) => {
    if (depth > 4) return text
    let out = text
    const region = regionAt(at)
    for (const m of text.matchAll(/(?<![\w$])(?<![^.]\.)([A-Za-z_$][\w$]*)/g)) {
      const name = m[1]
      if (seen.has(name)) continue
      const candidates = bindings.filter((b) => b.name === name)
      const local = candidates.filter((b) => regionAt(b.at) === region && b.at < at)
      // The nearest earlier one in the same function, else the module's own declaration of the name.
      const binding = local[local.length - 1] ?? candidates.find((b) => regions.some((r) => r.start === lineStartOf(b.at) && r.name === name))
      if (!binding) continue
      seen.add(name)
      out += `\n${expand(binding.text, binding.at, depth + 1, seen)}`
    }
    return out
  }
  const lineStartOf = (at) => src.lastIndexOf('\n', at - 1) + 1
  const lineAt = (at) => {
    let lo = 0
    let hi = lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (lineStarts[mid] <= at) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
  /**
   * For a statement in a module-private function (not exported) whose calls in the file all chain
   * on it: those chains, else null.
   */
  const fragmentCalls = (at) => {
    const region = regionAt(at)
    if (region === head || /^export\b/.test(src.slice(region.start, region.start + 7))) return null
    const calls = []
    for (const m of src.matchAll(new RegExp(`(?<![\\w$.])${region.name.replace(/\$/g, '\\$')}\\(`, 'g'))) {
      if (regionAt(m.index) === region) continue
      calls.push(chainAfter(src, matchingClose(src, m.index + m[0].length - 1)))
    }
    return calls.length ? calls : null
  }
  return { src, regions, regionAt, expand, lineAt, fragmentCalls }
}

/** The text of the expression starting at `from`: up to a `;` or a line end at depth 0 (continuation lines kept). */
function expressionAt(src, from) {
  let depth = 0
  for (let i = from; i < src.length; i++) {
    const c = src[i]
    if ('([{'.includes(c)) depth++
    else if (')]}'.includes(c)) {
      if (depth === 0) return src.slice(from, i)
      depth--
    } else if (depth === 0 && (c === ';' || c === ',')) return src.slice(from, i)
    else if (depth === 0 && c === '\n' && !/^\s*(\.|\?|:|&&|\|\||\+|-|\*)/.test(src.slice(i + 1, i + 40)) && !/(=>|[=?:+(,]|&&|\|\|)\s*$/.test(src.slice(from, i))) return src.slice(from, i)
  }
  return src.slice(from)
}

/** Index just past the bracket that closes the one at `open` (the masked source has no strings to trip on). */
function matchingClose(src, open) {
  let depth = 0
  for (let i = open; i < src.length; i++) {
    if ('([{'.includes(src[i])) depth++
    else if (')]}'.includes(src[i]) && --depth === 0) return i + 1
  }
  return src.length
}

/**
 * The source with comments, string and template texts and regular expressions blanked (same
 * length, newlines kept); a template's `${…}` code stays.
 */
export function maskSource(source) {
  const out = source.split('')
  const blank = (i) => {
    if (out[i] !== '\n') out[i] = ' '
  }
  const braces = [] // one entry per open `${`: the brace depth inside it
  let i = 0
  let lastCode = ''
  const templateText = () => {
    // i is just past a backtick or a `}` closing a `${`: blank up to the closing backtick or the next `${`.
    while (i < source.length) {
      const c = source[i]
      if (c === '\\') {
        blank(i)
        blank(i + 1)
        i += 2
      } else if (c === '`') {
        i++
        lastCode = '`'
        return
      } else if (c === '$' && source[i + 1] === '{') {
        braces.push(0)
        i += 2
        lastCode = '{'
        return
      } else blank(i++)
    }
  }
  while (i < source.length) {
    const c = source[i]
    const next = source[i + 1]
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') blank(i++)
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2)
      const stop = end < 0 ? source.length : end + 2
      while (i < stop) blank(i++)
    } else if (c === "'" || c === '"') {
      i++
      while (i < source.length && source[i] !== c && source[i] !== '\n') {
        if (source[i] === '\\') blank(i++)
        blank(i++)
      }
      i++
      lastCode = c
    } else if (c === '`') {
      i++
      templateText()
    } else if (c === '/' && (lastCode === '' || '(,=:[!&|?{};+-*%<>~^'.includes(lastCode) || /\b(return|typeof|case|of|in)$/.test(source.slice(Math.max(0, i - 8), i).trimEnd()))) {
      i++
      let inClass = false
      while (i < source.length && source[i] !== '\n') {
        const r = source[i]
        if (r === '\\') {
          blank(i++)
          blank(i++)
          continue
        }
        if (r === '[') inClass = true
        else if (r === ']') inClass = false
        else if (r === '/' && !inClass) break
        blank(i++)
      }
      i++
      while (/[a-z]/.test(source[i] ?? '')) i++
      lastCode = '/'
    } else if (braces.length && c === '{') {
      braces[braces.length - 1]++
      lastCode = c
      i++
    } else if (braces.length && c === '}') {
      if (braces[braces.length - 1] === 0) {
        braces.pop()
        i++
        templateText()
      } else {
        braces[braces.length - 1]--
        lastCode = c
        i++
      }
    } else {
      if (!/\s/.test(c)) lastCode = c
      i++
    }
  }
  return out.join('')
}
