// PayU Secure Form and card tokens in the PayU peer (issue 25), as PayU documents them
// (developers.payu.com "Card Tokenization", "Secure Form", "Creating Tokens", "Charging Tokens",
// "Retrieving and Deleting tokens"):
//   GET  /payu/hosted/js/sdk           a small script with the SDK's surface Coursefront uses:
//                                      PayU(posId) → .secureForms({lang}) → .add('number'|'date'|'cvv', opts)
//                                      → .render(selector); payu.tokenize('SINGLE'|'MULTI') →
//                                      {status:'SUCCESS', body:{token:'TOK_…', mask}} or
//                                      {status:'ERROR', error:{messages:[{type, code, source, message}]}}.
//   POST /payu/hosted/api/tokenize     what that script calls (CORS: any origin; no credentials).
// The real Secure Form draws iframes from secure.payu.com; here the fields are plain inputs WITHOUT
// name attributes, drawn by the script served from pay.localhost, so a card never posts to the
// school's server either way. Tokenize gives a single-use TOK_ (type SINGLE or MULTI, as PayU); an
// order paying with a MULTI TOK_ and `recurring: FIRST` (or cardOnFile FIRST) makes the multi-use
// TOKC_ (src/payu.ts). Where PayU's public docs are silent the peer chooses:
// - test cards: any Luhn-valid 13–19 digit number; one ending 0002 is declined by its issuer with
//   S51 (insufficient funds) whenever it is charged; brand from the prefix (VISA, MASTERCARD, MAESTRO);
// - the expiry must be MM/YY (or MM/YYYY) not in the past, the CVV 3 or 4 digits, else ERROR with
//   codes error.validation.card.number / .date / .cvv (the shape of PayU's documented tokenize errors).
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { PeersEnv, PeersHono } from './env.ts'

export type CardTokenRow = {
  token: string
  pos_id: string
  kind: 'SINGLE' | 'MULTI' | 'TOKC'
  masked: string
  exp_month: number
  exp_year: number
  brand: string
  issuer_answer: string
  used_by_order: string | null
  source_token: string | null
  ext_customer_id: string | null
  email: string | null
  status: string
  created_at: number
}

const luhn = (digits: string) =>
  digits
    .split('')
    .reverse()
    .reduce((sum, d, i) => {
      const n = Number(d) * (i % 2 ? 2 : 1)
      return sum + (n > 9 ? n - 9 : n)
    }, 0) %
    10 ===
  0

const brandOf = (number: string) => (number.startsWith('4') ? 'VISA' : /^(5[1-5]|2[2-7])/.test(number) ? 'MASTERCARD' : 'MAESTRO')
/** PayU's card scheme codes in transaction data (VS, MC, MA). */
export const schemeOf = (brand: string) => (brand === 'VISA' ? 'VS' : brand === 'MASTERCARD' ? 'MC' : 'MA')
const randomToken = (prefix: 'TOK_' | 'TOKC_') => `${prefix}${crypto.randomUUID().replace(/-/g, '').slice(0, 28).toUpperCase()}`

export const cardInput = z.object({
  posId: z.string().min(1).optional(),
  type: z.enum(['SINGLE', 'MULTI']).default('MULTI'),
  number: z.string(),
  expiry: z.string(),
  cvv: z.string(),
})

type TokenizeError = { type: 'validation'; code: string; source: 'number' | 'date' | 'cvv'; message: string }

/** Check a card as the Secure Form would; the token row to store, or PayU's validation messages. */
export function tokenizeCard(input: z.infer<typeof cardInput>, posId: string, now = new Date()): { row: CardTokenRow } | { errors: TokenizeError[] } {
  const errors: TokenizeError[] = []
  const number = input.number.replace(/[\s-]/g, '')
  if (!/^\d{13,19}$/.test(number) || !luhn(number)) errors.push({ type: 'validation', code: 'error.validation.card.number', source: 'number', message: 'Invalid card number' })
  const expiry = input.expiry.replace(/\s/g, '').match(/^(\d{1,2})\/(\d{2}|\d{4})$/)
  const month = expiry ? Number(expiry[1]) : 0
  const year = expiry ? (expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])) : 0
  const endOfMonth = new Date(Date.UTC(year, month, 1))
  if (!expiry || month < 1 || month > 12 || endOfMonth <= now) errors.push({ type: 'validation', code: 'error.validation.card.date', source: 'date', message: 'Invalid expiration date' })
  if (!/^\d{3,4}$/.test(input.cvv.trim())) errors.push({ type: 'validation', code: 'error.validation.card.cvv', source: 'cvv', message: 'Invalid CVV' })
  if (errors.length) return { errors }
  return {
    row: {
      token: randomToken('TOK_'),
      pos_id: posId,
      kind: input.type,
      masked: `${number.slice(0, 6)}${'*'.repeat(number.length - 10)}${number.slice(-4)}`,
      exp_month: month,
      exp_year: year,
      brand: brandOf(number),
      issuer_answer: number.endsWith('0002') ? 'S51' : '000',
      used_by_order: null,
      source_token: null,
      ext_customer_id: null,
      email: null,
      status: 'ACTIVE',
      created_at: Date.now(),
    },
  }
}

export async function insertCardToken(env: PeersEnv, row: CardTokenRow) {
  await env.PEERS_DB.prepare(
    'INSERT INTO payu_card_tokens (token, pos_id, kind, masked, exp_month, exp_year, brand, issuer_answer, used_by_order, source_token, ext_customer_id, email, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  )
    .bind(
      row.token,
      row.pos_id,
      row.kind,
      row.masked,
      row.exp_month,
      row.exp_year,
      row.brand,
      row.issuer_answer,
      row.used_by_order,
      row.source_token,
      row.ext_customer_id,
      row.email,
      row.status,
      row.created_at,
    )
    .run()
  return row
}

export const cardTokenOf = (env: PeersEnv, token: string) => env.PEERS_DB.prepare('SELECT * FROM payu_card_tokens WHERE token = ?').bind(token).first<CardTokenRow>()

/** Tokenize for `posId` (the POS the script was created for): stored and answered as the SDK does. */
export async function tokenizeFor(env: PeersEnv, input: z.infer<typeof cardInput>, posId: string) {
  const result = tokenizeCard(input, posId)
  if ('errors' in result) return { status: 'ERROR' as const, error: { messages: result.errors } }
  const row = await insertCardToken(env, result.row)
  return { status: 'SUCCESS' as const, body: { token: row.token, mask: row.masked } }
}

const CORS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'POST, OPTIONS', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' }

/** The browser-facing Secure Form routes, mounted at /payu/hosted. `knownPos` says whether a POS id exists. */
export function secureFormRoutes(knownPos: (env: PeersEnv, posId: string) => Promise<boolean>) {
  const app = new Hono<PeersHono>()

  app.get('/js/sdk', (c) => c.body(SDK_SOURCE, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' }))

  app.options('/api/tokenize', (c) => c.body(null, 204, CORS))
  app.post('/api/tokenize', async (c: Context<PeersHono>) => {
    const parsed = cardInput.safeParse(await c.req.json().catch(() => null))
    if (!parsed.success || !parsed.data.posId)
      return c.json({ status: 'ERROR', error: { messages: [{ type: 'technical', code: 'error.tokenization', source: 'request', message: 'Bad request' }] } }, 400, CORS)
    if (!(await knownPos(c.env, parsed.data.posId)))
      return c.json({ status: 'ERROR', error: { messages: [{ type: 'technical', code: 'error.invalid.pos', source: 'posId', message: 'Unknown POS' }] } }, 400, CORS)
    return c.json(await tokenizeFor(c.env, parsed.data, parsed.data.posId), 200, CORS)
  })

  return app
}

// The mini SDK (plain ES5-ish script, no build): inputs without `name`, labelled by the container's
// own aria-labelledby; tokenize posts them to the script's origin.
const SDK_SOURCE = `(function () {
  'use strict';
  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src).origin : location.origin;
  var TEXT = {
    en: { number: 'Card number', date: 'MM/YY', cvv: 'CVV' },
    pl: { number: 'Numer karty', date: 'MM/RR', cvv: 'CVV' }
  };
  var AUTOCOMPLETE = { number: 'cc-number', date: 'cc-exp', cvv: 'cc-csc' };
  function PayU(posId, options) {
    if (!(this instanceof PayU)) return new PayU(posId, options);
    this.posId = String(posId);
    this.forms = {};
  }
  PayU.prototype.secureForms = function (options) {
    var payu = this;
    var lang = options && options.lang === 'pl' ? 'pl' : 'en';
    return {
      add: function (type, opts) {
        if (type !== 'number' && type !== 'date' && type !== 'cvv') throw new Error('Unknown secure form type: ' + type);
        var input = document.createElement('input');
        input.type = 'text';
        input.inputMode = 'numeric';
        input.autocomplete = AUTOCOMPLETE[type];
        input.placeholder = (opts && opts.placeholder && opts.placeholder[type]) || TEXT[lang][type];
        input.setAttribute('data-payu-secure-form', type);
        input.style.width = '100%';
        input.style.boxSizing = 'border-box';
        var form = {
          type: type,
          input: input,
          render: function (selector) {
            var container = typeof selector === 'string' ? document.querySelector(selector) : selector;
            if (!container) throw new Error('Secure form container not found: ' + selector);
            var label = container.getAttribute('aria-labelledby');
            if (label) input.setAttribute('aria-labelledby', label);
            container.appendChild(input);
            return form;
          },
          clear: function () { input.value = ''; return form; },
          remove: function () { if (input.parentNode) input.parentNode.removeChild(input); delete payu.forms[type]; return form; },
          on: function () { return form; }
        };
        payu.forms[type] = form;
        return form;
      }
    };
  };
  PayU.prototype.tokenize = function (type) {
    var f = this.forms;
    if (!f.number || !f.date || !f.cvv) return Promise.resolve({ status: 'ERROR', error: { messages: [{ type: 'technical', code: 'error.tokenization', source: 'form', message: 'Secure forms not rendered' }] } });
    return fetch(origin + '/payu/hosted/api/tokenize', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ posId: this.posId, type: type === 'SINGLE' ? 'SINGLE' : 'MULTI', number: f.number.input.value, expiry: f.date.input.value, cvv: f.cvv.input.value })
    }).then(function (res) { return res.json(); }, function () {
      return { status: 'ERROR', error: { messages: [{ type: 'technical', code: 'error.network', source: 'network', message: 'PayU unreachable' }] } };
    });
  };
  window.PayU = PayU;
})();
`
