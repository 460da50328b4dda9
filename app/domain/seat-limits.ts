// Limits of the access-manager form, shared by the page (maxlength) and the server (zod).
export const INVITEE_NAME_MAX = 120
