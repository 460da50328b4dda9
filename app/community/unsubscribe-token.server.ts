// The unsubscribe link of a topic e-mail (issue 22 item 6: works without logging in): the school,
// the student and the topic, signed for this purpose only (app/utils/signed-claims.server.ts); a
// token of another school is refused by the route (the school comes from the host, ADR 002).
import { signClaims, verifyClaims } from '#app/utils/signed-claims.server.ts'

const PURPOSE = 'coursefront:community-unsubscribe:v1'

export type UnsubscribeClaims = { tenantId: string; userId: string; topicId: string }

export function signUnsubscribeToken(integrationsKey: string, claims: UnsubscribeClaims) {
  return signClaims(integrationsKey, PURPOSE, [claims.tenantId, claims.userId, claims.topicId])
}

/** The claims of a genuine token, else null (malformed, altered or signed with another key). */
export async function verifyUnsubscribeToken(integrationsKey: string, token: string): Promise<UnsubscribeClaims | null> {
  const ids = await verifyClaims(integrationsKey, PURPOSE, token, 3)
  return ids ? { tenantId: ids[0]!, userId: ids[1]!, topicId: ids[2]! } : null
}
