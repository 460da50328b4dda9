// The Bunny Stream peer as a process (npm start, the e2e runner, the bench):
//   tsx scripts/peers/bunny-stream-peer-cli.ts
// Env: BUNNY_PEER_PORT (default 8788, 0 = free), BUNNY_PEER_WEBHOOK_URL, BUNNY_PEER_DIR (storage;
// default a temp dir removed on exit), BUNNY_PEER_TRANSCODE_MS (default 3000). Library id and keys
// come from the [vars] of workers/media/wrangler.toml, so the media worker's signatures verify.
// Prints one line `bunny-stream-peer ready <origin>` once it listens.
import { startBunnyPeer } from './bunny-stream-peer.ts'
import { mediaWorkerBunnyKeys } from './wrangler-vars.mjs'

function intEnv(name: string, fallback: number) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) {
    console.error(`bunny-stream-peer: ${name} must be a non-negative integer, got "${raw}"`)
    process.exit(2)
  }
  return value
}

const peer = await startBunnyPeer({
  ...mediaWorkerBunnyKeys(),
  port: intEnv('BUNNY_PEER_PORT', 8788),
  webhookUrl: process.env.BUNNY_PEER_WEBHOOK_URL || undefined,
  storageDir: process.env.BUNNY_PEER_DIR || undefined,
  transcodeMs: intEnv('BUNNY_PEER_TRANSCODE_MS', 3000),
  log: true,
}).catch((error: unknown) => {
  const code = (error as { code?: string }).code
  console.error(code === 'EADDRINUSE' ? `bunny-stream-peer: port ${process.env.BUNNY_PEER_PORT || 8788} is already in use` : `bunny-stream-peer: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})

console.log(`bunny-stream-peer ready ${peer.origin}`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) return
    stopping = true
    peer.close().finally(() => process.exit(0))
  })
}
