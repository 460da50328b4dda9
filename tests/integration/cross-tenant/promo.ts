// Cross-tenant registry of the promo area (issue 8): its id-bearing routes and the victims they need.
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {}

export async function victims(_school: VictimSchool): Promise<Record<string, string>> {
  return {}
}
