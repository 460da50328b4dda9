// The terms of sale and privacy policy a school starts with (issue 23 §9): short, plain Markdown in
// the school's language with its name, contact e-mail and company filled in. A school that saved
// its own text (tenants.terms_md / privacy_md not empty) shows that instead. Not legal advice: the
// panel says the owner should adapt them.
import type { Locale } from '#app/i18n/i18n.ts'

export type LegalKind = 'terms' | 'privacy'

export type LegalFacts = {
  /** The school's name. */
  school: string
  /** The public contact e-mail ('' when the school set none). */
  email: string
  /** Who sells: the payout account holder, else the author, else the school's name. */
  company: string
}

/** Markdown escaping for the facts put into a template (a name with `*` or `[` stays text). */
function md(s: string) {
  return s.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (c) => `\\${c}`)
}

const EN: Record<LegalKind, (f: LegalFacts, contact: string) => string> = {
  terms: (f, contact) => `# Terms of sale

These terms apply to purchases of courses and other products in **${md(f.school)}**, run by ${md(f.company)} ("we").

## 1. Buying
- Prices are shown at checkout and are final, including any taxes that apply.
- By placing an order you accept these terms and our privacy policy.
- Access is granted once the payment is confirmed.

## 2. Digital content
You get access to digital content immediately after payment. By asking for immediate access you agree that you lose the 14-day right of withdrawal once the content is made available (EU Directive 2011/83/EU, art. 16(m)).

## 3. Complaints
Send complaints to ${contact}. We answer within 14 days.

## 4. Contact
${md(f.company)} · ${contact}
`,
  privacy: (f, contact) => `# Privacy policy

**${md(f.school)}** is run by ${md(f.company)}, the controller of your personal data.

## What we collect
Your name and e-mail address, the details you give at checkout, and your progress in the courses you buy.

## Why
To create your account, deliver what you bought, issue invoices, and answer your messages. We keep sales records as long as accounting law requires.

## Your rights
You may see, correct, download or delete your data, and object to its use. You may also complain to your data protection authority.

## Contact
${contact}
`,
}

const PL: Record<LegalKind, (f: LegalFacts, contact: string) => string> = {
  terms: (f, contact) => `# Regulamin sprzedaży

Regulamin dotyczy zakupów kursów i innych produktów w szkole **${md(f.school)}**, prowadzonej przez ${md(f.company)} („my”).

## 1. Zakup
- Ceny podane w kasie są ostateczne i zawierają należne podatki.
- Składając zamówienie, akceptujesz ten regulamin i politykę prywatności.
- Dostęp otrzymujesz po potwierdzeniu płatności.

## 2. Treści cyfrowe
Dostęp do treści cyfrowych otrzymujesz zaraz po płatności. Prosząc o natychmiastowy dostęp, przyjmujesz do wiadomości utratę 14-dniowego prawa odstąpienia od umowy z chwilą udostępnienia treści (art. 38 pkt 13 ustawy o prawach konsumenta).

## 3. Reklamacje
Reklamacje wyślij na adres ${contact}. Odpowiadamy w ciągu 14 dni.

## 4. Kontakt
${md(f.company)} · ${contact}
`,
  privacy: (f, contact) => `# Polityka prywatności

Administratorem Twoich danych osobowych w szkole **${md(f.school)}** jest ${md(f.company)}.

## Jakie dane zbieramy
Imię i nazwisko, adres e-mail, dane podane w kasie oraz postępy w kupionych kursach.

## Po co
Aby założyć konto, dostarczyć zakupione produkty, wystawić faktury i odpowiadać na wiadomości. Dane sprzedaży przechowujemy tak długo, jak wymagają tego przepisy o rachunkowości.

## Twoje prawa
Możesz uzyskać dostęp do swoich danych, poprawić je, pobrać lub usunąć oraz sprzeciwić się ich przetwarzaniu. Możesz też złożyć skargę do Prezesa UODO.

## Kontakt
${contact}
`,
}

/** The template of one page, filled in for the school. */
export function legalTemplate(kind: LegalKind, locale: Locale, facts: LegalFacts) {
  const contact = facts.email ? `[${md(facts.email)}](mailto:${facts.email})` : md(facts.school)
  return (locale === 'pl' ? PL : EN)[kind](facts, contact)
}

/** Who sells, for the templates: the payout account holder, else the author, else the school. */
export function legalFacts(t: { name: string; contactEmail: string; authorName: string; company: string | null }): LegalFacts {
  return { school: t.name, email: t.contactEmail, company: (t.company ?? '').trim() || t.authorName.trim() || t.name }
}
