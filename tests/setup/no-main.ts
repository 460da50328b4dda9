// The `main` of test projects that call code directly (the units tier): pool-workers imports a
// project's main into every test file (cloudflare:test), and the app's server.ts would evaluate
// the whole Remix bundle per file for tests that never send it a request.
export default {
  fetch: () => new Response('The units tier has no worker to call: use the app project.', { status: 404 }),
}
