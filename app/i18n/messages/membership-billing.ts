import { defineMessages } from './define.ts'

// Membership billing lifecycle (issue 8 item 6): the renewal emails to the student.
export const membershipBilling = defineMessages(
  {
    'membership_billing.mail.card.subject': 'Payment problem: your membership {product}',
    'membership_billing.mail.card.intro': 'We could not charge {amount} for your membership “{product}” at {school}.',
    'membership_billing.mail.card.help': 'Please check your card balance and validity, or update your card in your student panel. We will try again in 1 day and then in 3 days; if the payment still fails, your membership ends.',
    'membership_billing.mail.card.action': 'Update card',
    'membership_billing.mail.provider.subject': 'Payment problem: your membership {product}',
    'membership_billing.mail.provider.intro': 'The payment of {amount} for your membership “{product}” at {school} did not go through.',
    'membership_billing.mail.provider.help': 'The payment will be retried automatically. Please make sure your card can be charged; if the payments keep failing, your membership ends.',
    'membership_billing.mail.provider.action': 'Open your panel',
    'membership_billing.mail.pay_link.subject': 'Renew your membership {product}',
    'membership_billing.mail.pay_link.intro': 'Your membership “{product}” at {school} is due for renewal ({amount}).',
    'membership_billing.mail.pay_link.help': 'Pay for the next period with the link below. Without the payment your membership ends when the paid period is over.',
    'membership_billing.mail.pay_link.action': 'Renew membership',
  },
  {
    'membership_billing.mail.card.subject': 'Problem z płatnością: Twoje członkostwo {product}',
    'membership_billing.mail.card.intro': 'Nie udało się pobrać {amount} za Twoje członkostwo „{product}” w {school}.',
    'membership_billing.mail.card.help': 'Sprawdź saldo i ważność karty albo zmień kartę w panelu kursanta. Spróbujemy ponownie za 1 dzień, a potem za 3 dni; jeśli płatność się nie powiedzie, członkostwo wygaśnie.',
    'membership_billing.mail.card.action': 'Zmień kartę',
    'membership_billing.mail.provider.subject': 'Problem z płatnością: Twoje członkostwo {product}',
    'membership_billing.mail.provider.intro': 'Płatność {amount} za Twoje członkostwo „{product}” w {school} nie powiodła się.',
    'membership_billing.mail.provider.help': 'Płatność zostanie automatycznie ponowiona. Upewnij się, że z karty można pobrać opłatę; jeśli płatności nadal będą nieudane, członkostwo wygaśnie.',
    'membership_billing.mail.provider.action': 'Otwórz panel',
    'membership_billing.mail.pay_link.subject': 'Odnów członkostwo {product}',
    'membership_billing.mail.pay_link.intro': 'Twoje członkostwo „{product}” w {school} czeka na odnowienie ({amount}).',
    'membership_billing.mail.pay_link.help': 'Opłać kolejny okres, korzystając z linku poniżej. Bez płatności członkostwo wygaśnie po końcu opłaconego okresu.',
    'membership_billing.mail.pay_link.action': 'Odnów członkostwo',
  },
)
