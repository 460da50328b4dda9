// The stats page's query (issue 24 item 3): a preset or custom range of local days and a grouping,
// read with zod from the URL (a GET form, so ranges are links) and resolved in the school's zone.
import { z } from 'zod'
import { dayName, dayNumber, localDay, localMidnight, monthStart, nextMonthStart, offsetSegments, weekStart, type OffsetSegment } from '#app/domain/school-time-zone.ts'
import { msg, parseWith, type FieldErrors } from '#app/utils/validation.ts'

export const RANGE_PRESETS = ['7d', '30d', '90d', 'this_month', 'last_month', 'custom'] as const
export type RangePreset = (typeof RANGE_PRESETS)[number]
export const GROUPINGS = ['day', 'week', 'month'] as const
export type Grouping = (typeof GROUPINGS)[number]
/** Two years: enough for month-by-month comparisons, bounded work per request. */
export const MAX_RANGE_DAYS = 731

const date = z.string().refine((v) => dayNumber(v) !== null, { message: msg('stats.error.date') })
const StatsQuery = z
  .object({
    range: z.enum(RANGE_PRESETS).default('30d'),
    group: z.enum(GROUPINGS).default('day'),
    from: z.string().optional(),
    to: z.string().optional(),
  })
  .superRefine((q, ctx) => {
    if (q.range !== 'custom') return
    for (const field of ['from', 'to'] as const) {
      const parsed = date.safeParse(q[field] ?? '')
      if (!parsed.success) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: q[field] ? msg('stats.error.date') : msg('validation.required') })
    }
    const from = dayNumber(q.from ?? '')
    const to = dayNumber(q.to ?? '')
    if (from === null || to === null) return
    if (from > to) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['to'], message: msg('stats.error.order') })
    else if (to - from + 1 > MAX_RANGE_DAYS) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['to'], message: msg('stats.error.too_long', { count: MAX_RANGE_DAYS }) })
  })

export type Bucket = { start: number; end: number }

export type ResolvedRange = {
  preset: RangePreset
  group: Grouping
  zone: string
  /** First and last local day (day numbers, inclusive) and their names. */
  firstDay: number
  lastDay: number
  from: string
  to: string
  /** [fromMs, toMs): local midnight of the first day to local midnight after the last. */
  fromMs: number
  toMs: number
  segments: OffsetSegment[]
  /** The chart's columns: day numbers [start, end), clipped to the range. */
  buckets: Bucket[]
}

export type RangeResult = { ok: true; range: ResolvedRange } | { ok: false; errors: FieldErrors; range: ResolvedRange; values: Record<string, string> }

/** The URL's query → the range; bad input answers field errors and the default range (last 30 days). */
export function resolveRange(params: URLSearchParams, zone: string, now = Date.now()): RangeResult {
  const input: Record<string, string> = {}
  for (const key of ['range', 'group', 'from', 'to']) {
    const v = params.get(key)
    if (v !== null && v !== '') input[key] = v.slice(0, 40)
  }
  const parsed = parseWith(StatsQuery, input)
  if (!parsed.ok) return { ok: false, errors: parsed.errors, values: parsed.values, range: build('30d', 'day', zone, now) }
  const q = parsed.data
  return { ok: true, range: build(q.range, q.group, zone, now, q.from, q.to) }
}

function build(preset: RangePreset, group: Grouping, zone: string, now: number, from?: string, to?: string): ResolvedRange {
  const today = localDay(now, zone)
  let first = today - 29
  let last = today
  if (preset === '7d') first = today - 6
  else if (preset === '90d') first = today - 89
  else if (preset === 'this_month') first = monthStart(today)
  else if (preset === 'last_month') {
    last = monthStart(today) - 1
    first = monthStart(last)
  } else if (preset === 'custom') {
    first = dayNumber(from ?? '') ?? first
    last = dayNumber(to ?? '') ?? last
  }
  const fromMs = localMidnight(first, zone)
  const toMs = localMidnight(last + 1, zone)
  return {
    preset,
    group,
    zone,
    firstDay: first,
    lastDay: last,
    from: dayName(first),
    to: dayName(last),
    fromMs,
    toMs,
    segments: offsetSegments(fromMs, toMs, zone),
    buckets: buckets(first, last, group),
  }
}

/** Consecutive buckets covering [first, last]: days, Monday weeks or calendar months (the first and last clipped). */
export function buckets(first: number, last: number, group: Grouping): Bucket[] {
  const out: Bucket[] = []
  for (let start = first; start <= last; ) {
    const next = group === 'day' ? start + 1 : group === 'week' ? weekStart(start) + 7 : nextMonthStart(start)
    const end = Math.min(next, last + 1)
    out.push({ start, end })
    start = end
  }
  return out
}

/** Index of the bucket holding a day number, or -1 (binary search: buckets are sorted and adjacent). */
export function bucketOf(buckets: Bucket[], day: number) {
  let lo = 0
  let hi = buckets.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (day < buckets[mid].start) hi = mid - 1
    else if (day >= buckets[mid].end) lo = mid + 1
    else return mid
  }
  return -1
}
