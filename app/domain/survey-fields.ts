// A survey's limits and its questions as the browser sees them (seed 000 §3 "Form question"):
// shared by the survey model, the owner's editor and the site survey modal.

export const SURVEY_TITLE_MAX = 120
export const SURVEY_DESCRIPTION_MAX = 5000

export type SurveyOption = { label: string; value: string }
export type ClientSurveyQuestion =
  | { type: 'text'; inputType: 'text' | 'checkbox' | 'radio'; title: string; placeholder: string; required: boolean; options: SurveyOption[] }
  | { type: 'textarea'; title: string; placeholder: string; required: boolean }
  | { type: 'select'; title: string; placeholder: string; required: boolean; options: SurveyOption[] }
  | { type: 'checkbox_group'; title: string; required: boolean; options: SurveyOption[] }
  | { type: 'separator'; title: string }

export type SurveyAnswerValue = string | string[] | boolean

/** Title → key of its answer: 'How likely are you?' → 'how-likely-are-you' (server and browser agree). */
export function kebabCase(value: string) {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}
