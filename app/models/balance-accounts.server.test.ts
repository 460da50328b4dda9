// The payout account checks (issue 23 item 5): IBAN, Polish NRB, US (ABA routing + account) and
// SWIFT/BIC + account. Pure functions: the node tier.
import { describe, expect, it } from 'vitest'
import { checkIban, checkNrb, checkPayoutAccount, checkRoutingNumber, checkSwift, displayPayoutAccount, inferBankAccountType } from './balance.server.ts'

describe('checkIban', () => {
  it('needs a known country, its length and the mod-97 checksum', () => {
    expect(checkIban('de89 3704 0044 0532 0130 00')).toEqual({ ok: true, value: 'DE89370400440532013000' })
    expect(checkIban('FR14 2004 1010 0505 0001 3M02 606')).toEqual({ ok: true, value: 'FR1420041010050500013M02606' })
    expect(checkIban('DE89 3704 0044 0532 0130 0')).toEqual({ ok: false, error: 'format' }) // 21 characters: Germany has 22
    expect(checkIban('ZZ89370400440532013000')).toEqual({ ok: false, error: 'format' }) // no such country
    expect(checkIban('DE88370400440532013000')).toEqual({ ok: false, error: 'checksum' })
  })
})

describe('checkNrb', () => {
  it('26 digits with the IBAN PL checksum; a pasted PL IBAN keeps its digits', () => {
    expect(checkNrb('61 1090 1014 0000 0712 1981 2874')).toEqual({ ok: true, value: '61109010140000071219812874' })
    expect(checkNrb('PL61 1090 1014 0000 0712 1981 2874')).toEqual({ ok: true, value: '61109010140000071219812874' })
    expect(checkNrb('61 1090 1014 0000 0712 1981 2875')).toEqual({ ok: false, error: 'checksum' })
    expect(checkNrb('6110901014000007121981287')).toEqual({ ok: false, error: 'format' })
  })
})

describe('checkRoutingNumber', () => {
  it('9 digits with the 3-7-1 checksum', () => {
    expect(checkRoutingNumber('011000015')).toEqual({ ok: true, value: '011000015' })
    expect(checkRoutingNumber('021 000 021')).toEqual({ ok: true, value: '021000021' })
    expect(checkRoutingNumber('011000016')).toEqual({ ok: false, error: 'checksum' })
    expect(checkRoutingNumber('01100001')).toEqual({ ok: false, error: 'format' })
  })
})

describe('checkSwift', () => {
  it('8 or 11 characters: bank, country letters, place, branch', () => {
    expect(checkSwift('deutdeff')).toEqual({ ok: true, value: 'DEUTDEFF' })
    expect(checkSwift('DEUTDEFF500')).toEqual({ ok: true, value: 'DEUTDEFF500' })
    for (const bad of ['DEUTDEF', 'DEUT1EFF', 'DEUTDEFF50', 'DEUTDEFF5000']) expect(checkSwift(bad), bad).toEqual({ ok: false, error: 'format' })
  })
})

describe('checkPayoutAccount', () => {
  it('a US account: routing number and 4–17 digit account, each error on its field', () => {
    expect(checkPayoutAccount({ type: 'us', account: '000123456789', routing: '011000015' })).toEqual({
      ok: true,
      value: { bankAccountType: 'us', bankAccount: '000123456789', bankSwift: null, bankRoutingNumber: '011000015' },
    })
    expect(checkPayoutAccount({ type: 'us', account: '123', routing: '011000016' })).toEqual({ ok: false, errors: { bankAccount: 'us.format', bankRoutingNumber: 'us.routing_checksum' } })
    expect(checkPayoutAccount({ type: 'us', account: '123456789012345678', routing: '' })).toEqual({ ok: false, errors: { bankAccount: 'us.format', bankRoutingNumber: 'us.routing_format' } })
  })
  it('SWIFT/BIC with the bank’s own account number; IBAN and NRB need their own checks', () => {
    expect(checkPayoutAccount({ type: 'swift', account: '1234-5678-90', swift: 'hsbchkhhhkh' })).toEqual({
      ok: true,
      value: { bankAccountType: 'swift', bankAccount: '1234567890', bankSwift: 'HSBCHKHHHKH', bankRoutingNumber: null },
    })
    expect(checkPayoutAccount({ type: 'swift', account: '12', swift: 'HSBC' })).toEqual({ ok: false, errors: { bankAccount: 'swift.format', bankSwift: 'swift.bic_format' } })
    // IBAN and NRB: the number says which it is
    expect(checkPayoutAccount({ type: 'iban', account: '61 1090 1014 0000 0712 1981 2874' })).toMatchObject({ ok: true, value: { bankAccountType: 'nrb', bankAccount: '61109010140000071219812874' } })
    expect(checkPayoutAccount({ type: 'nrb', account: 'DE89370400440532013000' })).toMatchObject({ ok: true, value: { bankAccountType: 'iban' } })
    expect(checkPayoutAccount({ type: 'nrb', account: '011000015' })).toEqual({ ok: false, errors: { bankAccount: 'nrb.format' } })
  })
  it('shows older accounts (no type) as NRB or IBAN', () => {
    expect(inferBankAccountType('61109010140000071219812874')).toBe('nrb')
    expect(displayPayoutAccount({ bankAccountType: null, bankAccount: 'PL61109010140000071219812874' })).toBe('PL61 1090 1014 0000 0712 1981 2874')
    expect(displayPayoutAccount({ bankAccountType: 'us', bankAccount: '000123456789' })).toBe('000123456789')
  })
})
