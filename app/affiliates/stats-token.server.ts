// The partner's private stats link (issue 24 item 5: "a partner gets a private stats page by a
// signed link"): the school and the partner, signed for this purpose only
// (app/utils/signed-claims.server.ts). The route refuses a token of another school (the school
// comes from the host, ADR 002).
import { signClaims, verifyClaims } from '#app/utils/signed-claims.server.ts'

const PURPOSE = 'coursefront:affiliate-stats:v1'

export type PartnerStatsClaims = { tenantId: string; partnerId: string }

export function signPartnerStatsToken(integrationsKey: string, claims: PartnerStatsClaims) {
  return signClaims(integrationsKey, PURPOSE, [claims.tenantId, claims.partnerId])
}

/** The claims of a genuine token, else null (malformed, altered or signed with another key). */
export async function verifyPartnerStatsToken(integrationsKey: string, token: string): Promise<PartnerStatsClaims | null> {
  const ids = await verifyClaims(integrationsKey, PURPOSE, token, 2)
  return ids ? { tenantId: ids[0]!, partnerId: ids[1]! } : null
}
