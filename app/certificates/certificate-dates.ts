// A certificate's date in its language and the school's time zone (issue 24: '' = Warsaw for a
// Polish school, UTC otherwise). Browser-safe: the verification page and the PDF share it.
import type { Locale } from '#app/i18n/i18n.ts'

export function defaultTimeZone(language: Locale) {
  return language === 'pl' ? 'Europe/Warsaw' : 'UTC'
}

export function formatCertificateDate(value: number, language: Locale, timeZone = '') {
  const zone = timeZone || defaultTimeZone(language)
  try {
    return new Intl.DateTimeFormat(language === 'pl' ? 'pl-PL' : 'en-US', { day: 'numeric', month: 'long', year: 'numeric', timeZone: zone }).format(value)
  } catch {
    // An unknown zone name (a stale setting) must not break the page.
    return new Intl.DateTimeFormat(language === 'pl' ? 'pl-PL' : 'en-US', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(value)
  }
}
