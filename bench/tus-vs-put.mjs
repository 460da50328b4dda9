// Upload throughput over loopback: tus (tus-js-client in Node → the Bunny Stream peer, a real
// @tus/server + FileStore) against one raw HTTP PUT to a minimal Node handler that writes to disk.
//   node bench/tus-vs-put.mjs [--size-mb 50] [--runs 5] [--chunk-mib 8]
// Rows: tus in chunks of --chunk-mib (the app's chunk size), tus in one PATCH, raw PUT. Each row
// gets one warm-up run, then the median / min / max of --runs. Both servers run in their own
// process (the peer through scripts/lib/stack.mjs, like npm start), the client in this one, all
// on this machine's cores: read the numbers as protocol overhead, not as Bunny's speed.
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Upload } from 'tus-js-client'
import { freePort, startBunnyPeer, stopProcessGroup } from '../scripts/lib/stack.mjs'
import { mediaWorkerBunnyKeys } from '../scripts/peers/wrangler-vars.mjs'

// Child mode: the PUT target. Streams the body to a file, answers 201 with the byte count.
if (process.argv[2] === '--put-server') {
  const dir = process.argv[3]
  const server = createServer((req, res) => {
    if (req.method !== 'PUT') return res.writeHead(405).end()
    let bytes = 0
    req.on('data', (chunk) => (bytes += chunk.length))
    // One file, truncated per request: the disk holds one copy, as the peer deletes each run's video.
    const file = createWriteStream(join(dir, 'put-body'))
    req.pipe(file)
    file.on('finish', () => res.writeHead(201, { 'Content-Type': 'text/plain' }).end(String(bytes)))
    file.on('error', () => res.writeHead(500).end())
  })
  server.listen(0, '127.0.0.1', () => console.log(`put-server ${server.address().port}`))
  process.on('SIGTERM', () => process.exit(0))
} else {
  await main()
}

function arg(name, fallback) {
  const i = process.argv.indexOf(name)
  if (i === -1) return fallback
  const value = Number(process.argv[i + 1])
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`)
  return value
}

async function main() {
  const SIZE = Math.round(arg('--size-mb', 50) * 1_000_000)
  const RUNS = arg('--runs', 5)
  const CHUNK = Math.round(arg('--chunk-mib', 8) * 1024 * 1024)
  const keys = mediaWorkerBunnyKeys()
  const data = randomBytes(SIZE)
  const tmp = mkdtempSync(join(tmpdir(), 'tus-vs-put-'))
  const peerDir = join(tmp, 'peer')
  const putDir = join(tmp, 'put')
  mkdirSync(putDir)

  const peerPort = await freePort()
  const peer = await startBunnyPeer({ port: peerPort, storageDir: peerDir, logFile: join(tmp, 'peer.log'), transcodeMs: 600_000 })
  const origin = `http://127.0.0.1:${peerPort}`
  const put = await startPutServer(putDir)
  try {
    const rows = [
      [`tus, ${CHUNK / 1024 / 1024} MiB chunks`, () => tusUpload(origin, keys, data, CHUNK)],
      ['tus, one PATCH', () => tusUpload(origin, keys, data, Number.POSITIVE_INFINITY)],
      ['raw PUT (Node handler → disk)', () => rawPut(put.port, data)],
    ]
    const results = []
    for (const [label, once] of rows) {
      await once() // warm-up
      const rates = []
      for (let i = 0; i < RUNS; i++) rates.push(SIZE / 1_000_000 / ((await once()) / 1000))
      rates.sort((a, b) => a - b)
      results.push({ label, median: rates[Math.floor(rates.length / 2)], min: rates[0], max: rates.at(-1) })
      console.log(`${label}: median ${rates[Math.floor(rates.length / 2)].toFixed(0)} MB/s`)
    }
    console.log(`\n${SIZE / 1_000_000} MB, ${RUNS} runs per row (after 1 warm-up), node ${process.version}, ${cpus().length} cores`)
    console.log('\n| upload | median MB/s | min | max |\n|---|---|---|---|')
    for (const r of results) console.log(`| ${r.label} | ${r.median.toFixed(0)} | ${r.min.toFixed(0)} | ${r.max.toFixed(0)} |`)
  } finally {
    put.child.kill('SIGTERM')
    await stopProcessGroup(peer)
    rmSync(tmp, { recursive: true, force: true })
  }
}

function startPutServer(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--put-server', dir], { stdio: ['ignore', 'pipe', 'inherit'] })
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (line) => {
      const port = /put-server (\d+)/.exec(line)?.[1]
      if (port) resolve({ child, port: Number(port) })
    })
    child.once('exit', (code) => reject(new Error(`PUT server exited (${code})`)))
  })
}

async function createVideo(origin, keys) {
  const res = await fetch(`${origin}/library/${keys.libraryId}/videos`, { method: 'POST', headers: { AccessKey: keys.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'bench' }) })
  if (!res.ok) throw new Error(`create video: HTTP ${res.status}`)
  return (await res.json()).guid
}

/**
 * A fresh video per run (one upload per video), signed like the media worker signs it. Timed from
 * the tus POST to the last PATCH's answer; creating and deleting the video are not counted.
 */
async function tusUpload(origin, keys, data, chunkSize) {
  const videoId = await createVideo(origin, keys)
  const expire = Math.floor(Date.now() / 1000) + 3600
  const headers = {
    AuthorizationSignature: createHash('sha256').update(`${keys.libraryId}${keys.apiKey}${expire}${videoId}`).digest('hex'),
    AuthorizationExpire: String(expire),
    VideoId: videoId,
    LibraryId: keys.libraryId,
  }
  const started = performance.now()
  await new Promise((resolve, reject) => {
    new Upload(data, { endpoint: `${origin}/tusupload`, headers, chunkSize, metadata: { filetype: 'video/mp4', title: 'bench' }, retryDelays: null, onSuccess: resolve, onError: reject }).start()
  })
  const ms = performance.now() - started
  // Keep the peer's disk from filling up over many runs.
  await fetch(`${origin}/library/${keys.libraryId}/videos/${videoId}`, { method: 'DELETE', headers: { AccessKey: keys.apiKey } })
  return ms
}

function rawPut(port, data) {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'PUT', path: '/upload', headers: { 'Content-Type': 'video/mp4', 'Content-Length': data.length } }, (res) => {
      let body = ''
      res.on('data', (d) => (body += d))
      res.on('end', () => (res.statusCode === 201 && Number(body) === data.length ? resolve(performance.now() - started) : reject(new Error(`PUT: HTTP ${res.statusCode} ${body}`))))
    })
    req.on('error', reject)
    req.end(data)
  })
}
