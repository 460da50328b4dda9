import { defineMessages } from './define.ts'

// What the page frame needs even when the root loader has no data to give (an error page):
// bundled into the client, unlike the rest of the catalogue (root loader sends the page's language).
export const core = defineMessages(
  {
    'nav.skip': 'Skip to content',
    'footer.copyright': '© {year} {name}',
    'footer.powered': 'Powered by Coursefront',
    'error.generic.title': 'Something went wrong',
    'error.generic.text': 'Please try again in a moment.',
    'error.not_found.title': 'Page not found',
    'error.not_found.text': 'The page you are looking for does not exist.',
    'error.back_home': 'Go to the home page',
    'error.session_expired': 'Session expired',
    'error.session_expired_reload': 'Your session has expired - please reload',
  },
  {
    'nav.skip': 'Przejdź do treści',
    'footer.copyright': '© {year} {name}',
    'footer.powered': 'Działa na Coursefront',
    'error.generic.title': 'Coś poszło nie tak',
    'error.generic.text': 'Spróbuj ponownie za chwilę.',
    'error.not_found.title': 'Nie znaleziono strony',
    'error.not_found.text': 'Strona, której szukasz, nie istnieje.',
    'error.back_home': 'Przejdź na stronę główną',
    'error.session_expired': 'Sesja wygasła',
    'error.session_expired_reload': 'Twoja sesja wygasła – odśwież stronę',
  },
)
