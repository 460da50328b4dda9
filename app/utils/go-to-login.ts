// Seed 000 §7: a script call answered 419 (expired session, failed CSRF check) sends the user to
// /login. Several listeners notice the same 419 (the fetch patch in entry.client.tsx, the caller,
// the root error boundary): the first navigates, the rest do nothing — two assigns in a row would
// abort the first navigation mid-flight.
let leaving = false

export function goToLogin(path = '/login') {
  if (leaving || window.location.pathname === '/login') return
  leaving = true
  window.location.assign(path)
}
