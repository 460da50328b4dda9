// Cross-tenant registry of stats (issue 24 item 3): revenue, sales, funnels, leads and conversion.
// No route of the area takes an id in its path (/home/stats, POST /home/stats/export): the school
// comes from the host. That another school's sales never count is asserted in
// tests/integration/stats.test.ts, page views on another school's host in stats-page-views.test.ts.
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {}

export async function victims(_school: VictimSchool): Promise<Record<string, string>> {
  return {}
}
