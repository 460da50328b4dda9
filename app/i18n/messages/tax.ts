import { defineMessages } from './define.ts'

// The school's tax setting (issue 23 item 4): prices include VAT at a rate, or no VAT at all.
export const tax = defineMessages(
  {
    'tax.title': 'Taxes',
    'tax.intro': 'How your prices are taxed. Checkout, receipts and invoices follow this setting.',
    'tax.mode': 'Tax on your prices',
    'tax.mode.vat': 'Prices include VAT at',
    'tax.mode.none': 'No VAT (not a VAT payer / outside the EU)',
    'tax.rate': 'Default VAT rate for new products (%)',
    'tax.rate_hint': 'Each product can still have its own rate.',
    'tax.save': 'Save tax settings',
    'tax.saved': 'Tax settings saved.',
    'tax.error.rate': 'Enter a whole number from 0 to 30.',
    'tax.current.vat': 'Prices include VAT at {rate}% by default.',
    'tax.current.none': 'No VAT: the checkout and invoices show no VAT.',
    'tax.product_none': 'This school charges no VAT, so no VAT rate applies (change it in Payments → Taxes).',
  },
  {
    'tax.title': 'Podatki',
    'tax.intro': 'Jak opodatkowane są Twoje ceny. Kasa, potwierdzenia i faktury stosują to ustawienie.',
    'tax.mode': 'Podatek w cenach',
    'tax.mode.vat': 'Ceny zawierają VAT w stawce',
    'tax.mode.none': 'Bez VAT (nie jestem płatnikiem VAT / spoza UE)',
    'tax.rate': 'Domyślna stawka VAT nowych produktów (%)',
    'tax.rate_hint': 'Każdy produkt może mieć własną stawkę.',
    'tax.save': 'Zapisz ustawienia podatków',
    'tax.saved': 'Zapisano ustawienia podatków.',
    'tax.error.rate': 'Podaj liczbę całkowitą od 0 do 30.',
    'tax.current.vat': 'Ceny domyślnie zawierają VAT {rate}%.',
    'tax.current.none': 'Bez VAT: kasa i faktury nie pokazują VAT.',
    'tax.product_none': 'Ta szkoła nie nalicza VAT, więc stawka VAT nie ma zastosowania (zmienisz to w Płatności → Podatki).',
  },
)
