// PLACEHOLDER (lead): the engagement helper replaces this with the survey model.
import type { Db } from '#app/db/client.server.ts'

/** The school's active site survey, if any (the /panel shows its modal). */
export async function getActiveSurveyId(_db: Db, _tenantId: string): Promise<string | null> {
  return null
}
