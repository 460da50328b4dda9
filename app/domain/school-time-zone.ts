// A school's time zone (issue 24 item 3) and the calendar arithmetic the stats need, with Intl only
// (no dependency): a local day is a range of UTC milliseconds whose length changes on DST days.

const DAY_MS = 86_400_000

/** '' (not chosen) falls back to the school's language: Polish schools live in Warsaw, English ones in UTC. */
export function schoolTimeZone(tenant: { timeZone?: string | null; language: 'en' | 'pl' }) {
  const zone = tenant.timeZone?.trim()
  if (zone && isTimeZone(zone)) return zone
  return tenant.language === 'pl' ? 'Europe/Warsaw' : 'UTC'
}

let zones: ReadonlySet<string> | null = null
/** IANA names the runtime knows (workerd and browsers); UTC is always one. */
export function timeZoneNames(): string[] {
  return [...knownZones()]
}
function knownZones() {
  if (!zones) {
    const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
    zones = new Set(['UTC', ...listed])
  }
  return zones
}
export function isTimeZone(value: string) {
  return knownZones().has(value)
}

const formats = new Map<string, Intl.DateTimeFormat>()
function partsFormat(zone: string) {
  let format = formats.get(zone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    if (formats.size > 64) formats.clear()
    formats.set(zone, format)
  }
  return format
}

/** Offset of `zone` from UTC at `instant`, in ms (Warsaw in summer: +7,200,000). */
export function zoneOffset(instant: number, zone: string) {
  const p: Record<string, string> = {}
  for (const part of partsFormat(zone).formatToParts(instant)) p[part.type] = part.value
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour) % 24, Number(p.minute), Number(p.second))
  return wall - (instant - (((instant % 1000) + 1000) % 1000))
}

/** Days since 1970-01-01 of a 'YYYY-MM-DD' calendar date (no zone: a date is a name). */
export function dayNumber(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!m) return null
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  const back = new Date(ms).toISOString().slice(0, 10)
  return back === date ? ms / DAY_MS : null
}

/** 'YYYY-MM-DD' of a day number. */
export function dayName(day: number) {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}

/** The local calendar day (day number) that `instant` falls on in `zone`. */
export function localDay(instant: number, zone: string) {
  return Math.floor((instant + zoneOffset(instant, zone)) / DAY_MS)
}

/** UTC ms of local midnight starting day number `day` in `zone` (a gap at midnight: the first instant after it). */
export function localMidnight(day: number, zone: string) {
  const wall = day * DAY_MS
  // Two passes: the offset at the guess, then at the corrected instant (DST days differ by an hour).
  const first = wall - zoneOffset(wall, zone)
  const second = wall - zoneOffset(first, zone)
  return localDay(second, zone) === day ? second : first
}

/** Where `zone`'s offset is constant over [from, to): `{ from, offset }` pieces, oldest first. */
export type OffsetSegment = { from: number; offset: number }

/**
 * The offset pieces of [from, to): probed once per day (zones change their offset at most a few
 * times a year and never twice in a day), each change narrowed to the minute by bisection.
 */
export function offsetSegments(from: number, to: number, zone: string): OffsetSegment[] {
  const segments: OffsetSegment[] = [{ from, offset: zoneOffset(from, zone) }]
  let previous = from
  for (let at = from + DAY_MS; ; at += DAY_MS) {
    const probe = Math.min(at, to - 1)
    const offset = zoneOffset(probe, zone)
    const current = segments[segments.length - 1]
    if (offset !== current.offset) {
      let lo = previous
      let hi = probe
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 2)
        if (zoneOffset(mid, zone) === current.offset) lo = mid
        else hi = mid
      }
      segments.push({ from: hi - (hi % 60_000), offset })
    }
    previous = probe
    if (probe >= to - 1) break
  }
  return segments
}

/** Monday-based week start (day number) of a day number (1970-01-01 was a Thursday). */
export function weekStart(day: number) {
  return day - ((day + 3) % 7)
}

/** First day (day number) of the month holding a day number. */
export function monthStart(day: number) {
  const d = new Date(day * DAY_MS)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS
}

/** First day of the next month. */
export function nextMonthStart(day: number) {
  const d = new Date(day * DAY_MS)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / DAY_MS
}
