// Balance and withdrawals (issue 8 item 8; seed 001 §4, §5, §8): a new school's owner meets the
// page-settings guard, fills the bank account (field errors first) and is told that nothing can be
// withdrawn yet; in Code Academy (seeded with a completed sale) the owner withdraws, the operator
// marks it paid in the console, and the owner sees it paid.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, expectUrl, fieldError, heading, demoOperator, logIn, newSchool, operatorLogIn, signUp, snap, subdomain, url, visit } from './support.ts'

const VALID_IBAN = 'PL61 1090 1014 0000 0712 1981 2874'

async function saveBankAccount(page: Page, account: string, holder: string) {
  const form = page.locator('form[data-bank-form]')
  await form.locator('[name="bankAccount"]').fill(account)
  await form.locator('[name="bankAccountHolder"]').fill(holder)
  await form.getByRole('button', { name: 'Save bank account' }).click()
}

browserTest('a new school: page settings first, then the bank account; nothing to withdraw yet', async ({ page }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')

  await visit(page, url(host, '/home/balance'))
  await expectText(heading(page), 'Balance')
  await expectText(page.locator('[data-balance-incomplete]'), 'Complete your page settings before opening the balance page. Missing: author name, public contact email.')
  await page.getByRole('link', { name: 'Go to page settings' }).click()
  await expectUrl(page, host, '/home/settings/page')
  await page.locator('form [name="authorName"]').fill('Ewa Testowa')
  await page.locator('form [name="contactEmail"]').fill(school.owner.email)
  await page.locator('form[data-page-settings]').getByRole('button', { name: 'Save changes' }).click()
  await expectUrl(page, host, '/home/settings/page')
  await page.locator('[data-done="saved"]').waitFor()

  await visit(page, url(host, '/home/balance'))
  await expectText(page.locator('[data-balance="USD"] [data-figure="available"]'), '$0.00')
  await expectText(page.locator('[data-balance="USD"]'), 'No transactions available so withdrawal is not possible')
  await expectText(page.locator('[data-payout-promise]'), 'paid to your bank account within 7 days')
  await expectText(page.locator('[data-bank-none]'), 'No bank account yet.')

  await saveBankAccount(page, 'PL61 1090 1014 0000 0712 1981 2875', 'Ewa Testowa')
  await expectText(fieldError(page, 'bankAccount'), 'This account number is not valid: check its digits')
  await saveBankAccount(page, 'hello', '')
  await expectText(fieldError(page, 'bankAccount'), 'Enter an IBAN or a 26-digit Polish account number')
  await expectText(fieldError(page, 'bankAccountHolder'), 'This field is required')
  await saveBankAccount(page, VALID_IBAN, 'Ewa Testowa')
  await expectUrl(page, host, '/home/balance')
  await page.locator('[data-done="bank"]').waitFor()
  await expectText(page.getByRole('status'), 'Changes saved')
  await expectText(page.locator('[data-bank-current]'), 'PL61 1090 1014 0000 0712 1981 2874')
  await snap(page, 'balance-empty')

  await visit(page, url(host, '/home/transactions'))
  await expectText(page.locator('[data-transactions-empty]'), 'No transactions yet.')
})

browserTest('the owner withdraws the balance, the operator marks it paid, the owner sees it paid', async ({ page, newContext }) => {
  const academy = demoSchool('code-academy')
  const host = subdomain(academy.slug)
  const owner = demoUser(academy, 'owner')
  await logIn(page, host, owner.email, owner.password)
  await expectUrl(page, host, '/home')

  await visit(page, url(host, '/home/transactions?status=completed'))
  const completed = await page.locator('[data-transactions] [data-status="completed"]').count()
  assert.ok(completed > 0, 'Code Academy needs a completed demo sale in the seed (tenants/code-academy.json) to withdraw')

  await visit(page, url(host, '/home/balance'))
  const card = page.locator('[data-balance="USD"]')
  const available = (await card.locator('[data-figure="available"]').innerText()).trim()
  assert.match(available, /^\$[\d,]+\.\d\d$/)
  assert.notEqual(available, '$0.00', 'Code Academy needs a completed demo sale (seed) to withdraw')

  // No bank account yet: the request is refused with a link to the form.
  await card.getByRole('button', { name: `Withdraw ${available}` }).click()
  await expectText(page.locator('[data-withdraw-error]'), 'Set your bank account before requesting a withdrawal.')
  await saveBankAccount(page, VALID_IBAN, 'Alex Carter')
  await expectUrl(page, host, '/home/balance')
  await page.locator('[data-done="bank"]').waitFor()

  await card.getByRole('button', { name: `Withdraw ${available}` }).click()
  await expectText(page.locator('[data-withdrawal-requested]'), `Withdrawal of ${available} requested. It will be paid within 7 days.`)
  await expectText(card.locator('[data-figure="available"]'), '$0.00')
  await expectText(card.locator('[data-figure="pending"]'), available)
  const row = page.locator('[data-withdrawals] tr[data-withdrawal-status="pending"]').first()
  await expectText(row, 'Pending')
  const withdrawalId = await row.getAttribute('data-withdrawal')
  assert.ok(withdrawalId)

  const operatorPage = await (await newContext()).newPage()
  await operatorLogIn(operatorPage, demoOperator('finance@coursefront.test'))
  await operatorPage.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Withdrawals' }).click()
  await expectUrl(operatorPage, 'localhost', '/operator/withdrawals')
  const opRow = operatorPage.locator(`tr[data-withdrawal="${withdrawalId}"]`)
  await expectText(opRow, academy.name)
  await expectText(opRow, available)
  await expectText(opRow, 'PL61 1090 1014 0000 0712 1981 2874')
  await snap(operatorPage, 'operator-withdrawals')
  await opRow.getByRole('button', { name: 'Mark as paid' }).click()
  await expectText(operatorPage.getByRole('status'), 'Withdrawal marked as paid.')
  await expectText(opRow, 'Paid')
  assert.equal(await opRow.getByRole('button', { name: 'Mark as paid' }).count(), 0)

  await visit(page, url(host, '/home/balance'))
  await expectText(page.locator(`tr[data-withdrawal="${withdrawalId}"]`), 'Paid')
  await expectText(card.locator('[data-figure="paid"]'), available)
  await expectText(card.locator('[data-figure="pending"]'), '$0.00')
  await snap(page, 'balance-paid')
})

browserTest(
  'the bank account form and the withdrawal refusal work without JavaScript',
  async ({ page }) => {
    const school = newSchool('pl')
    const host = subdomain(school.slug)
    await signUp(page, school)
    await expectUrl(page, host, '/home')
    await visit(page, url(host, '/home/settings/page'))
    await page.locator('form [name="authorName"]').fill('Ewa Testowa')
    await page.locator('form [name="contactEmail"]').fill(school.owner.email)
    await page.locator('form[data-page-settings]').getByRole('button', { name: 'Zapisz zmiany' }).click()
    await expectUrl(page, host, '/home/settings/page')
    await page.locator('[data-done="saved"]').waitFor()

    await visit(page, url(host, '/home/balance'))
    await expectText(heading(page), 'Saldo')
    await saveBankAccountPl(page, '12 3456', 'Ewa')
    await expectText(fieldError(page, 'bankAccount'), 'Podaj IBAN lub 26-cyfrowy numer polskiego rachunku')
    await saveBankAccountPl(page, '61 1090 1014 0000 0712 1981 2874', 'Ewa Testowa')
    await expectUrl(page, host, '/home/balance')
    await page.locator('[data-done="bank"]').waitFor()
    await expectText(page.locator('[data-bank-current]'), '61 1090 1014 0000 0712 1981 2874')
    await expectText(page.locator('[data-balance="PLN"]'), 'Brak dostępnych transakcji, więc wypłata nie jest możliwa')
  },
  { javaScriptEnabled: false },
)

async function saveBankAccountPl(page: Page, account: string, holder: string) {
  const form = page.locator('form[data-bank-form]')
  await form.locator('[name="bankAccount"]').fill(account)
  await form.locator('[name="bankAccountHolder"]').fill(holder)
  await form.getByRole('button', { name: 'Zapisz konto bankowe' }).click()
}
