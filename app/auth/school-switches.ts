// The school's access switches (issue 23 §11, seed 001 §8 "login temporarily disabled",
// "registration temporarily disabled"): they keep students out; owners and admins always sign in.
import type { UserRole } from '#app/db/schema.server.ts'
import type { FieldMessage } from '#app/utils/validation.ts'

export const LOGIN_DISABLED: FieldMessage = { key: 'auth.login.disabled' }
export const REGISTRATION_DISABLED: FieldMessage = { key: 'auth.register.disabled' }

/** May this account sign in to the school now? */
export function loginAllowed(school: { loginDisabled: boolean }, role: UserRole) {
  return role !== 'student' || !school.loginDisabled
}

/** May a visitor create a student account now (register, checkout)? */
export function registrationAllowed(school: { registrationDisabled: boolean }) {
  return !school.registrationDisabled
}
