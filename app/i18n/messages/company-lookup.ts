import { defineMessages } from './define.ts'

// Issue 25: the checkout's "Fill from the register" (GUS BIR 1.1 / VIES) and the BLIK code field
// under Przelewy24 (English and Polish).
export const companyLookup = defineMessages(
  {
    'company_lookup.button': 'Fill from the register',
    'company_lookup.button_busy': 'Searching…',
    'company_lookup.searching': 'Looking the number up in the business register…',
    'company_lookup.filled': 'Filled in from the register: {name}. Check the details; you can still change them.',
    'company_lookup.filled_partly': 'The register confirms this number but shares no name or address for it. Please type them in.',
    'company_lookup.empty': 'Type the NIP or EU VAT number first.',
    'company_lookup.checksum': 'This NIP is not valid: check the digits.',
    'company_lookup.format': 'Type a Polish NIP (10 digits) or an EU VAT number with its country prefix, e.g. DE123456789.',
    'company_lookup.not_found': 'The register has no company with this number. Please type the details yourself.',
    'company_lookup.unavailable': 'The register is not answering right now. Please type the details yourself: the order does not depend on it.',
    'checkout_blik.label': 'BLIK code (optional)',
    'checkout_blik.hint': 'Type the 6-digit code from your banking app to pay without leaving this page; leave empty to choose on Przelewy24’s page.',
  },
  {
    'company_lookup.button': 'Uzupełnij z rejestru',
    'company_lookup.button_busy': 'Szukam…',
    'company_lookup.searching': 'Sprawdzam numer w rejestrze firm…',
    'company_lookup.filled': 'Uzupełniono z rejestru: {name}. Sprawdź dane; nadal możesz je zmienić.',
    'company_lookup.filled_partly': 'Rejestr potwierdza ten numer, ale nie udostępnia nazwy ani adresu. Wpisz je, proszę.',
    'company_lookup.empty': 'Najpierw wpisz NIP lub unijny numer VAT.',
    'company_lookup.checksum': 'Ten NIP jest nieprawidłowy: sprawdź cyfry.',
    'company_lookup.format': 'Wpisz polski NIP (10 cyfr) lub unijny numer VAT z prefiksem kraju, np. DE123456789.',
    'company_lookup.not_found': 'W rejestrze nie ma firmy o tym numerze. Wpisz dane samodzielnie.',
    'company_lookup.unavailable': 'Rejestr teraz nie odpowiada. Wpisz dane samodzielnie: zamówienie od tego nie zależy.',
    'checkout_blik.label': 'Kod BLIK (opcjonalnie)',
    'checkout_blik.hint': 'Wpisz 6-cyfrowy kod z aplikacji banku, aby zapłacić bez opuszczania tej strony; zostaw puste, aby wybrać metodę na stronie Przelewy24.',
  },
)
