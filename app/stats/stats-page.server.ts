// The stats page's use case (issue 24 item 3): the school's zone, the range from the URL, one
// batch of reads, the report. The page and the CSV export both go through it.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { joinSessionBatch } from '#app/auth/auth.server.ts'
import { schoolTimeZone } from '#app/domain/school-time-zone.ts'
import { getSchoolTimeZoneSetting, getStatsData, schoolTimeZoneQuery } from '#app/models/stats.server.ts'
import { requireSchool } from '#app/utils/request.server.ts'
import { resolveRange } from './range.ts'
import { buildReport } from './report.ts'

/** The school's stored zone (its shard's settings row); the language comes with the resolved tenant. */
type ZoneRow = { timeZone: string }

/**
 * Starts the read of the school's zone: in the session lookup's batch when there is one (no extra
 * round trip). Call before awaiting anything (joinSessionBatch's rule).
 */
export function startZoneRead(request: Request, context: AppLoadContext): () => Promise<ZoneRow | undefined> {
  const tenant = requireSchool(context)
  const joined = joinSessionBatch(request, context, () => [schoolTimeZoneQuery(context.db, tenant.id)])
  return async () => {
    if (joined) {
      const [rows] = (await joined) as [ZoneRow[]]
      if (rows) return rows[0]
    }
    return getSchoolTimeZoneSetting(context.db, tenant.id)
  }
}

export async function loadStats(context: AppLoadContext, tenant: { id: string; language: 'en' | 'pl' }, zoneRow: ZoneRow | undefined, params: URLSearchParams, now = Date.now()) {
  const zone = schoolTimeZone({ timeZone: zoneRow?.timeZone ?? '', language: tenant.language })
  const result = resolveRange(params, zone, now)
  const data = await getStatsData(context.db, tenant.id, result.range, now)
  return { result, report: buildReport(data, result.range) }
}
