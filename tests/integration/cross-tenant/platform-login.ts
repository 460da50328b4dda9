// Cross-tenant registry of issue 23's one-time links: the platform's "Log in to your school"
// (§6) and the account's e-mail change (§12) mean nothing on another school's host.
import { createAuthToken } from '#app/models/auth-token.server.ts'
import { createEmailChangeToken } from '#app/models/user.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'login-link.$token': [
    // On its own host the link shows its button (the GET uses nothing up).
    { method: 'GET', path: (v) => `/login-link/${v.loginLinkToken}`, control: { status: 200 } },
    { method: 'POST', path: (v) => `/login-link/${v.loginLinkToken}` },
  ],
  'account_.email.$token': [
    { method: 'GET', path: (v) => `/account/email/${v.emailChangeToken}`, control: { status: 200 } },
    { method: 'POST', path: (v) => `/account/email/${v.emailChangeToken}` },
  ],
}

export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  return {
    loginLinkToken: await createAuthToken(dbOf(school.tenantId), school.tenantId, school.ownerId, 'login_link'),
    emailChangeToken: await createEmailChangeToken(dbOf(school.tenantId), school.tenantId, school.ownerId, `moved-${school.tenantId}@example.com`),
  }
}
