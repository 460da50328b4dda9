import { describe, expect, it } from 'vitest'
import { translate } from '#app/i18n/i18n.ts'
import { messages } from '#app/i18n/messages/index.ts'
import {
  DECLINE_REASONS,
  declineFromPayuCardResponse,
  declineFromStatusReason,
  declineFromStripe,
  declineFromTestCard,
  declineFromTestCardLast4,
  declineMessageKeys,
  declineStatusReason,
  TEST_CARDS,
} from './payment-failure.ts'
import { storedCardDecline, testDecline } from '#app/payments/test-provider.server.ts'

describe('decline reasons on the transaction', () => {
  it('round-trips every reason through status_reason', () => {
    for (const reason of DECLINE_REASONS) {
      expect(declineStatusReason(reason)).toBe(`decline:${reason}`)
      expect(declineFromStatusReason(declineStatusReason(reason))).toBe(reason)
    }
  })

  it('reads anything else as no decline', () => {
    for (const other of [null, undefined, '', 'expired', 'decline:', 'decline:nope', 'DECLINE:insufficient_funds', 'refund:re_1', 'amount: provider 100 EUR, transaction 14900 PLN', 'insufficient_funds']) {
      expect(declineFromStatusReason(other), String(other)).toBeNull()
    }
  })
})

describe('Stripe decline codes', () => {
  it.each([
    [{ code: 'card_declined', decline_code: 'generic_decline' }, 'sale_error'],
    [{ code: 'card_declined', decline_code: 'do_not_honor' }, 'sale_error'],
    [{ code: 'card_declined', decline_code: 'fraudulent' }, 'sale_error'],
    [{ code: 'card_declined' }, 'sale_error'],
    [{ code: 'card_declined', decline_code: 'insufficient_funds' }, 'insufficient_funds'],
    [{ code: 'card_declined', decline_code: 'card_velocity_exceeded' }, 'limit_exceeded'],
    [{ code: 'card_declined', decline_code: 'withdrawal_count_limit_exceeded' }, 'limit_exceeded'],
    [{ code: 'expired_card', decline_code: 'expired_card' }, 'card_expired'],
    [{ code: 'expired_card' }, 'card_expired'],
    [{ code: 'card_declined', decline_code: 'lost_card' }, 'card_lost_stolen'],
    [{ code: 'card_declined', decline_code: 'stolen_card' }, 'card_lost_stolen'],
    [{ code: 'card_declined', decline_code: 'pickup_card' }, 'card_lost_stolen'],
    [{ code: 'incorrect_number' }, 'card_number'],
    [{ code: 'invalid_number' }, 'card_number'],
    [{ code: 'incorrect_cvc' }, 'card_invalid'],
    [{ code: 'invalid_cvc' }, 'card_invalid'],
    [{ code: 'invalid_expiry_month' }, 'card_invalid'],
    [{ code: 'invalid_expiry_year' }, 'card_invalid'],
    [{ code: 'card_declined', decline_code: 'authentication_required' }, 'three_ds_failed'],
    [{ code: 'payment_intent_authentication_failure' }, 'three_ds_failed'],
    [{ code: 'processing_error' }, 'processing'],
    [{ code: 'card_declined', decline_code: 'try_again_later' }, 'processing'],
    [{ code: 'coupon_expired' }, 'coupon_expired'],
    [{ code: 'something_new', decline_code: 'also_new' }, 'payment_failed'],
    [{ code: null, decline_code: null }, 'payment_failed'],
    [null, 'payment_failed'],
  ] as const)('%j → %s', (error, reason) => {
    expect(declineFromStripe(error)).toBe(reason)
  })
})

describe('PayU card response codes', () => {
  it.each([
    ['000', null],
    ['00', null],
    // PayU's card status codes: S + the ISO code, SP1, 114.
    ['S51', 'insufficient_funds'],
    ['s51', 'insufficient_funds'],
    ['S54', 'card_expired'],
    ['S05', 'sale_error'],
    ['S04', 'card_lost_stolen'],
    ['S43', 'card_lost_stolen'],
    ['S61', 'limit_exceeded'],
    ['S65', 'limit_exceeded'],
    ['SP1', 'limit_exceeded'],
    ['114', 'three_ds_failed'],
    ['S99', 'payment_failed'],
    ['051', 'insufficient_funds'],
    ['51', 'insufficient_funds'],
    ['005', 'sale_error'],
    ['057', 'sale_error'],
    ['061', 'limit_exceeded'],
    ['065', 'limit_exceeded'],
    ['054', 'card_expired'],
    ['041', 'card_lost_stolen'],
    ['043', 'card_lost_stolen'],
    ['004', 'card_lost_stolen'],
    ['014', 'card_number'],
    ['082', 'card_invalid'],
    ['n7', 'card_invalid'],
    ['096', 'processing'],
    ['091', 'processing'],
    [' 051 ', 'insufficient_funds'],
    ['999', 'payment_failed'],
    ['abc', 'payment_failed'],
    ['', 'payment_failed'],
    [null, 'payment_failed'],
  ] as const)('%j → %s', (code, reason) => {
    expect(declineFromPayuCardResponse(code)).toBe(reason)
  })
})

describe('the test provider’s cards', () => {
  it('answers like Stripe’s test cards; any other number pays', () => {
    expect(declineFromTestCard('4000000000000002')).toBe('sale_error')
    expect(declineFromTestCard('4000 0000 0000 9995')).toBe('insufficient_funds')
    expect(declineFromTestCard('4000000000009987')).toBe('card_lost_stolen')
    expect(declineFromTestCard('4000000000009979')).toBe('card_lost_stolen')
    expect(declineFromTestCard('4000-0000-0000-0069')).toBe('card_expired')
    expect(declineFromTestCard('4000000000000119')).toBe('processing')
    expect(declineFromTestCard('4000000000006975')).toBe('limit_exceeded')
    expect(declineFromTestCard('4000008400001629')).toBe('three_ds_failed')
    expect(declineFromTestCard('4242424242424242')).toBeNull()
    expect(declineFromTestCard('5555555555554444')).toBeNull()
  })

  it('reads a stored card by its last four digits', () => {
    expect(declineFromTestCardLast4('9995')).toBe('insufficient_funds')
    expect(declineFromTestCardLast4('0002')).toBe('sale_error')
    expect(declineFromTestCardLast4('0069')).toBe('card_expired')
    // A declining card that is none of the list: the generic decline.
    expect(declineFromTestCardLast4('1234')).toBe('sale_error')
  })

  it('says why a test payment failed: its reason, else what the outcome means', () => {
    expect(testDecline('failed')).toBe('sale_error')
    expect(testDecline('3ds_failed')).toBe('three_ds_failed')
    expect(testDecline('failed', 'insufficient_funds')).toBe('insufficient_funds')
    expect(testDecline('succeeded', 'insufficient_funds')).toBeNull()
    expect(testDecline('pending')).toBeNull()
  })

  it('a stored card declines with the reason of its test card', () => {
    expect(storedCardDecline('tok_test_9995_decline_abc123')).toBe('insufficient_funds')
    expect(storedCardDecline('tok_test_0002_decline_abc123')).toBe('sale_error')
    expect(storedCardDecline('tok_test_9995_ok_abc123')).toBeNull()
    expect(storedCardDecline('garbage')).toBeNull()
    expect(storedCardDecline(null)).toBeNull()
  })

  it('lists every card once, with distinct last four digits among the declining ones', () => {
    expect(new Set(TEST_CARDS.map((c) => c.number)).size).toBe(TEST_CARDS.length)
    const declining = TEST_CARDS.filter((c) => c.decline).map((c) => c.number.slice(-4))
    expect(new Set(declining).size).toBe(declining.length)
  })
})

describe('the texts', () => {
  it('has a text and a hint for every reason in English and Polish', () => {
    for (const reason of DECLINE_REASONS) {
      const keys = declineMessageKeys(reason)
      for (const locale of ['en', 'pl'] as const) {
        expect((messages[locale] as Record<string, string>)[keys.title], `${locale} ${keys.title}`).toBeTruthy()
        expect((messages[locale] as Record<string, string>)[keys.hint], `${locale} ${keys.hint}`).toBeTruthy()
      }
    }
  })

  it('uses the seeds’ words in English, and the catalogue’s existing wording for the same errors', () => {
    const en = (r: (typeof DECLINE_REASONS)[number]) => translate('en', declineMessageKeys(r).title)
    expect(en('sale_error')).toBe('Sale error')
    expect(en('insufficient_funds')).toBe('Insufficient funds')
    expect(en('limit_exceeded')).toBe('Card usage limit exceeded')
    expect(en('card_invalid')).toBe('Card data is not valid')
    expect(en('coupon_expired')).toBe('Coupon code expired')
    expect(translate('en', 'payment.failure.sale_error.hint')).toMatch(/check your card details or use another card/i)
    expect(translate('en', 'payment.failure.processing.hint')).toMatch(/reload the page and try again/i)
    for (const locale of ['en', 'pl'] as const) {
      expect(translate(locale, 'payment.failure.coupon_expired')).toBe(translate(locale, 'promo.error.coupon_expired'))
      expect(translate(locale, 'payment.failure.card_invalid')).toBe(translate(locale, 'membership.card.error.cypher'))
    }
    expect(translate('pl', 'payment.failure.insufficient_funds')).toBe('Brak wystarczających środków')
  })
})
