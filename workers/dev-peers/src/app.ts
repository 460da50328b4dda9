// The dev peers' HTTP surface (development only):
//   GET  /dns-query?name=&type=                         DNS-over-HTTPS, JSON API
//   *    /client/v4/zones/:zoneId/custom_hostnames[/:id] Cloudflare for SaaS custom hostnames API
//   PUT  /coursefront-media/{key}  (+ OPTIONS)          R2's S3 API: presigned uploads (s3.ts)
//   POST /sms.do                                        SMSAPI.pl: send an SMS (smsapi.ts)
//   *    /payu/…                                          PayU REST v2.1 (OAuth, orders, hosted page; payu.ts)
//   *    /stripe/…                                        Stripe API (webhook endpoints, Checkout Sessions, subscriptions; stripe.ts)
//   *    /_peer/…                                        records, faults, state, request log, sent SMS (control.ts)
import { Hono } from 'hono'
import { control } from './control.ts'
import { customHostnamesPeer } from './custom-hostnames.ts'
import { dohPeer } from './doh.ts'
import { fakturowniaPeer } from './fakturownia.ts'
import { ifirmaPeer } from './ifirma.ts'
import { infaktPeer } from './infakt.ts'
import { invoicingControl } from './invoicing-peer.ts'
import { mailchimpPeer } from './mailchimp.ts'
import { payuControl, payuPeer } from './payu.ts'
import { s3Peer } from './s3.ts'
import { smsapiPeer } from './smsapi.ts'
import { stripeControl, stripePeer } from './stripe.ts'
import { webhookReceiver } from './webhook-receiver.ts'
import { p24Control, p24Peer } from './p24.ts'
import { tpayControl, tpayPeer } from './tpay.ts'
import { paypalControl, paypalPeer } from './paypal.ts'
import { braintreeControl, braintreePeer } from './braintree.ts'
import { paylaneControl, paylanePeer } from './paylane.ts'
import { gusControl, gusPeer } from './gus.ts'
import { viesControl, viesPeer } from './vies.ts'
import type { PeersHono } from './env.ts'

export const peersApp = new Hono<PeersHono>()

// Never a real service: outside development and tests it answers nothing.
peersApp.use('*', async (c, next) => {
  if (c.env.ENVIRONMENT !== 'development' && c.env.ENVIRONMENT !== 'test') return c.body(null, 404)
  return next()
})

peersApp.get('/', (c) =>
  c.json({
    peers: {
      doh: 'GET /dns-query?name=<host>&type=A|AAAA|CNAME|TXT (Accept: application/dns-json)',
      cloudflare: 'POST|GET /client/v4/zones/:zoneId/custom_hostnames, GET|PATCH|DELETE …/:id (Authorization: Bearer <PEER_CF_API_TOKEN>)',
      smsapi: 'POST /sms.do (Authorization: Bearer <PEER_SMSAPI_TOKEN>; form: to, message, from, format=json, encoding)',
      payu: 'POST /payu/pl/standard/user/oauth/authorize (form-encoded), POST|GET /payu/api/v2_1/orders[/:id] (Bearer), GET|POST /payu/pay/:id (hosted page); control /_peer/payu/orders[/:id/status]',
      stripe: 'POST /stripe/v1/webhook_endpoints, POST|GET /stripe/v1/checkout/sessions[/:id], GET|DELETE /stripe/v1/subscriptions/:id (Bearer sk_test_…, form-encoded), GET|POST /stripe/pay/:id; control /_peer/stripe/…',
      s3: 'PUT /<PEER_S3_BUCKET>/<key>?X-Amz-… (presigned, SigV4), OPTIONS preflight; reached at s3.{PLATFORM_HOST} through the app',
      control: 'GET /_peer/state, GET|POST|DELETE /_peer/dns/records, GET|POST|DELETE /_peer/faults, PATCH /_peer/custom-hostnames/:id, GET /_peer/requests, GET|DELETE /_peer/sms/messages, POST /_peer/reset',
    },
  }),
)
peersApp.route('/dns-query', dohPeer)
peersApp.route('/client/v4/zones/:zoneId/custom_hostnames', customHostnamesPeer)
peersApp.route('/payu', payuPeer)
peersApp.route('/_peer/payu', payuControl)
peersApp.route('/stripe', stripePeer)
peersApp.route('/_peer/stripe', stripeControl)
// Issue 25: Przelewy24, Tpay, PayPal, Braintree, Paylane, GUS BIR 1.1 and VIES; buyers' pages under /{provider}/hosted/….
peersApp.route('/p24', p24Peer)
peersApp.route('/_peer/p24', p24Control)
peersApp.route('/tpay', tpayPeer)
peersApp.route('/_peer/tpay', tpayControl)
peersApp.route('/paypal', paypalPeer)
peersApp.route('/_peer/paypal', paypalControl)
peersApp.route('/braintree', braintreePeer)
peersApp.route('/_peer/braintree', braintreeControl)
peersApp.route('/paylane', paylanePeer)
peersApp.route('/_peer/paylane', paylaneControl)
peersApp.route('/gus', gusPeer)
peersApp.route('/_peer/gus', gusControl)
peersApp.route('/vies', viesPeer)
peersApp.route('/_peer/vies', viesControl)
peersApp.route('/fakturownia', fakturowniaPeer)
peersApp.route('/infakt', infaktPeer)
peersApp.route('/ifirma', ifirmaPeer)
peersApp.route('/_peer/invoicing', invoicingControl)
peersApp.route('/_peer', control)
peersApp.route('/sms.do', smsapiPeer)
peersApp.route('/webhook-receiver', webhookReceiver)
peersApp.route('/mailchimp', mailchimpPeer)
// Last: `/{bucket}/{key}` would match any two-segment path.
peersApp.route('/', s3Peer)
peersApp.notFound((c) => c.json({ error: 'Not found' }, 404))
