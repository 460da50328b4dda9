// What a company register answers, as the checkout fills it (shared by the GUS and VIES clients,
// the cache and the route). Pure types and a zod schema for what is read back from the cache.

// The shape lives with the cache's model (models never import a capability's files).
export { companySchema, type RegisterAnswer, type RegisterCompany } from '#app/models/company-lookup.server.ts'

/** The register could not answer (down, timed out, refused us, answered something unreadable): never cached. */
export class RegisterUnavailableError extends Error {
  constructor(readonly register: 'gus' | 'vies', message: string) {
    super(`${register}: ${message}`)
    this.name = 'RegisterUnavailableError'
  }
}

/** Each register call is bounded (issue 25: a lookup never holds the checkout up for long). */
export const REGISTER_TIMEOUT_MS = 5_000
