// Cross-tenant registry of the students area (issue 5): every route file with a URL parameter
// in this area, how to address the victim school's object, and how to create those objects.
import { createAuthToken } from '#app/models/auth-token.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.students.$studentId': [
    // On its own host: the sign-in redirect (the student exists there), not 404.
    { method: 'GET', path: (v) => `/home/students/${v.studentId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/students/${v.studentId}`, form: { intent: 'grant', productId: 'x', reason: 'Hijack' } },
    { method: 'POST', path: (v) => `/home/students/${v.studentId}`, form: { intent: 'deny', productId: 'x', reason: 'Hijack' } },
  ],
  'invitation.$token': [
    { method: 'GET', path: (v) => `/invitation/${v.invitationToken}`, control: { status: 200 } },
    { method: 'POST', path: (v) => `/invitation/${v.invitationToken}`, form: { name: 'Hijacked', password: 'hijacked-1', password_confirmation: 'hijacked-1' } },
  ],
}

/** Creates this area's objects in the victim school; the keys become fields of VictimObjects. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  return {
    studentId: school.studentId,
    invitationToken: await createAuthToken(dbOf(school.tenantId), school.tenantId, school.studentId, 'invitation'),
  }
}
