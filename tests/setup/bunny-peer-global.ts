// Vitest global setup (runs in Node, once per project that lists it): the Bunny Stream peer on a
// free port with the media worker's dev keys. Tests in workerd reach it with
// `inject('bunnyPeer').origin` (outbound fetch to 127.0.0.1 is allowed by miniflare).
import type { TestProject } from 'vitest/node'
import { startBunnyPeer } from '../../scripts/peers/bunny-stream-peer.ts'
import { mediaWorkerBunnyKeys } from '../../scripts/peers/wrangler-vars.mjs'

export default async function setup(project: TestProject) {
  const keys = mediaWorkerBunnyKeys()
  // Short transcoding so tests that wait for Finished stay fast; no webhook URL: workerd listens on
  // no socket, so tests replay the recorded deliveries (`/_peer/webhooks`) into the worker.
  // A project whose worker has the origin in its bindings reserved the port (tests/workers-project.ts).
  const port = Number(project.config.provide?.bunnyPeerPort ?? 0)
  const peer = await startBunnyPeer({ ...keys, port, transcodeMs: 300 })
  project.provide('bunnyPeer', { origin: peer.origin, ...keys })
  return async () => {
    await peer.close()
  }
}
