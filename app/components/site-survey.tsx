// PLACEHOLDER (lead): the engagement helper replaces this with the site survey modal (seed 000 §4).
export function SiteSurvey({ surveyId }: { surveyId: string | null }) {
  return surveyId ? <div data-site-survey={surveyId} hidden /> : null
}
