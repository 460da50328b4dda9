import { defineMessages } from './define.ts'

// Promo codes: management and the checkout call (issue 8 item 2)
export const promo = defineMessages(
  {
    'promo.title': 'Promo codes',
  },
  {
    'promo.title': 'Kody promocyjne',
  },
)
