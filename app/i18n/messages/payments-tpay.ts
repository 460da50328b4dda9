import { defineMessages } from './define.ts'

// Issue 25: Tpay — the credentials form on the payment settings page and its errors (English and Polish).
export const paymentsTpay = defineMessages(
  {
    'payments.add.tpay': 'Connect Tpay',
    'payments.add.tpay.intro':
      'Tpay takes payments in PLN by card, bank transfer and BLIK, and renews memberships with the card saved at the first payment. Create an Open API key in Tpay’s Merchant Panel (Integrations → API) and paste it here. Nothing is saved until Tpay accepts it.',
    'payments.tpay.field.clientId': 'Client id',
    'payments.tpay.field.clientId.hint': 'The key from Integrations → API → Open API keys, e.g. 1010-a1b2c3d4e5f6a7b8.',
    'payments.tpay.field.clientSecret': 'Client secret',
    'payments.tpay.field.merchantId': 'Merchant id (optional)',
    'payments.tpay.field.merchantId.hint': 'Your Tpay account number. When given, notifications naming another account are refused.',
    'payments.tpay.field.sandbox': 'Is this a Tpay sandbox account?',
    'payments.tpay.error.clientId': 'Enter the client id: letters, digits and dashes only',
    'payments.tpay.error.clientSecret': 'Paste the client secret without spaces',
    'payments.tpay.error.merchantId': 'Enter the merchant id: digits only, or leave it empty',
    'payments.tpay.error.sandbox': 'Choose whether this is a sandbox account',
    'payments.tpay.error.refused': 'Tpay refused this client id and secret. Check the key in Integrations → API, or create a new one.',
    'payments.tpay.error.currency': 'Tpay takes payments in PLN only. Choose PLN.',
    'payments.tpay.error.sandbox_not_allowed': 'Only real payments are taken here: a Tpay sandbox account cannot be connected. Choose “No, real payments” and a production key.',
  },
  {
    'payments.add.tpay': 'Połącz Tpay',
    'payments.add.tpay.intro':
      'Tpay przyjmuje płatności w PLN kartą, przelewem i BLIKIEM, a członkostwa odnawia kartą zapisaną przy pierwszej płatności. Utwórz klucz Open API w Panelu Akceptanta Tpay (Integracja → API) i wklej go tutaj. Nic nie zostanie zapisane, dopóki Tpay go nie zaakceptuje.',
    'payments.tpay.field.clientId': 'Client id',
    'payments.tpay.field.clientId.hint': 'Klucz z Integracja → API → Klucze do Open API, np. 1010-a1b2c3d4e5f6a7b8.',
    'payments.tpay.field.clientSecret': 'Client secret (hasło klucza)',
    'payments.tpay.field.merchantId': 'Identyfikator sprzedawcy (opcjonalnie)',
    'payments.tpay.field.merchantId.hint': 'Numer Twojego konta w Tpay. Gdy go podasz, powiadomienia dotyczące innego konta są odrzucane.',
    'payments.tpay.field.sandbox': 'Czy to konto sandbox Tpay?',
    'payments.tpay.error.clientId': 'Wpisz client id: tylko litery, cyfry i myślniki',
    'payments.tpay.error.clientSecret': 'Wklej client secret bez spacji',
    'payments.tpay.error.merchantId': 'Wpisz identyfikator sprzedawcy: tylko cyfry, albo zostaw puste',
    'payments.tpay.error.sandbox': 'Wybierz, czy to konto sandbox',
    'payments.tpay.error.refused': 'Tpay odrzucił ten client id i secret. Sprawdź klucz w Integracja → API albo utwórz nowy.',
    'payments.tpay.error.currency': 'Tpay przyjmuje płatności tylko w PLN. Wybierz PLN.',
    'payments.tpay.error.sandbox_not_allowed': 'Tutaj przyjmowane są tylko prawdziwe płatności: konta sandbox Tpay nie można połączyć. Wybierz „Nie, prawdziwe płatności” i klucz produkcyjny.',
  },
)
