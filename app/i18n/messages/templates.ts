import { defineMessages } from './define.ts'

// The storefront templates, their preview, the public contact e-mail and the school's access
// switches (issue 23 §11). Template names are page_settings.template.*.
export const templates = defineMessages(
  {
    'templates.hint': 'Classic: rounded cards and a colourful banner. Minimal: black on white, serif headings, no shadows. Bold: a dark header, heavy capitals and high-contrast cards.',
    'templates.preview.title': 'Preview before saving',
    'templates.preview.link': 'Preview {template}',
    'templates.preview.new_tab': '(opens in a new tab)',
    'templates.preview.banner': 'You are previewing the {template} template. Visitors see the saved one until you change it in page settings.',
    'templates.preview.back': 'Back to page settings',
    'templates.footer.contact': 'Contact: {email}',
    'templates.nav.account': 'Account',
    'templates.access.title': 'Access',
    'templates.access.intro': 'Owners and admins can always sign in, whatever these switches say.',
    'templates.access.login_disabled': 'Login temporarily disabled',
    'templates.access.registration_disabled': 'Registration temporarily disabled',
    'templates.access.simplified_checkout': 'Simplified checkout (e-mail, name and consents only)',
  },
  {
    'templates.hint': 'Klasyczny: zaokrąglone karty i kolorowy baner. Minimalistyczny: czerń na bieli, szeryfowe nagłówki, bez cieni. Wyrazisty: ciemny nagłówek, grube wersaliki i kontrastowe karty.',
    'templates.preview.title': 'Podgląd przed zapisaniem',
    'templates.preview.link': 'Podgląd: {template}',
    'templates.preview.new_tab': '(otwiera się w nowej karcie)',
    'templates.preview.banner': 'Oglądasz podgląd szablonu {template}. Odwiedzający widzą zapisany szablon, dopóki nie zmienisz go w ustawieniach strony.',
    'templates.preview.back': 'Wróć do ustawień strony',
    'templates.footer.contact': 'Kontakt: {email}',
    'templates.nav.account': 'Konto',
    'templates.access.title': 'Dostęp',
    'templates.access.intro': 'Właściciele i administratorzy zawsze mogą się zalogować, niezależnie od tych przełączników.',
    'templates.access.login_disabled': 'Logowanie tymczasowo wyłączone',
    'templates.access.registration_disabled': 'Rejestracja tymczasowo wyłączona',
    'templates.access.simplified_checkout': 'Uproszczony koszyk (tylko e-mail, imię i nazwisko oraz zgody)',
  },
)
