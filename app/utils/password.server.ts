// Password hashing with node:crypto scrypt (workerd caps WebCrypto PBKDF2 at 100k iterations).
// N=2^14, r=8, p=5 is one of OWASP's scrypt baselines and needs 16 MiB, well inside 128 MB.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

const PARAMS = { N: 16384, r: 8, p: 5 }
const KEY_LENGTH = 32

function derive(password: string, salt: Buffer, N: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    )
  })
}

/** Returns `scrypt$N$r$p$salt$hash` (base64), self-describing so parameters can be raised later. */
export async function hashPassword(password: string) {
  const salt = randomBytes(16)
  const key = await derive(password, salt, PARAMS.N, PARAMS.r, PARAMS.p)
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string) {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * A hash of a random password: compared against when the email is unknown, to even out timing.
 * The value is kept, never the pending promise (a promise shared between requests is cancelled
 * for the others when its request ends first).
 */
let dummyHash: string | undefined
export async function getDummyHash() {
  dummyHash ??= await hashPassword(crypto.randomUUID())
  return dummyHash
}
