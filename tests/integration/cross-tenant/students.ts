// Cross-tenant registry of the students area (issue 5): every route file with a URL parameter
// in this area, how to address the victim school's object, and how to create those objects.
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {}

/** Creates this area's objects in the victim school; the keys become fields of VictimObjects. */
export async function victims(_school: VictimSchool): Promise<Record<string, string>> {
  return {}
}
