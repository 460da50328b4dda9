// Shared by the media worker's tests: the app as the service binding reaches it, the S3 peer
// through DEV_PEERS (playing the browser's PUT), and tiny test files.
import { env } from 'cloudflare:workers'
import { expect } from 'vitest'
import { MEDIA_SERVICE_ORIGIN, type CompleteBody, type InitiateBody } from '#app/media/contract.ts'
import { mediaApp } from './app.ts'
import type { MediaWorkerEnv } from './env.ts'
import { bytes } from '#tests/bytes.ts'
import { createTestSchool } from '#tests/factories.ts'

export const testEnv = env as unknown as MediaWorkerEnv

export async function api<T = unknown>(tenantId: string, action: 'initiate' | 'complete' | 'delete', body: unknown, origin = MEDIA_SERVICE_ORIGIN) {
  const res = await mediaApp.request(`${origin}/tenants/${tenantId}/images/${action}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }, testEnv)
  return { status: res.status, body: (await res.json()) as T }
}

export { bytes }
export const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR', new Uint8Array(200).fill(7))
export const GIF = bytes('GIF89a', [1, 0, 1, 0, 0x80, 0, 0], new Uint8Array(100).fill(3))
export const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0], new Uint8Array(300).fill(9))
export const SVG_SAFE = bytes('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="red"/></svg>')
export const SVG_SCRIPT = bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>')
export const PNG_WITH_HTML = bytes(PNG, 'tEXt<html><body><script>alert(1)</script></body></html>')
export const EXE = bytes('MZ', [0x90, 0, 3, 0], new Uint8Array(500))

export type FileSpec = { context: string; filename: string; extension?: string; contentType: string; data: Uint8Array }

export async function initiate(tenantId: string, f: FileSpec, size = f.data.length) {
  const ext = f.extension ?? f.filename.split('.').pop()!
  return api<InitiateBody & { error?: string; values?: Record<string, unknown> }>(tenantId, 'initiate', { context: f.context, filename: f.filename, extension: ext, size, contentType: f.contentType })
}

/** The browser's PUT: the presigned URL, exactly the headers given, no credentials. */
export async function put(init: InitiateBody, data: Uint8Array, headers: Record<string, string> = init.headers, url = init.uploadUrl) {
  return testEnv.DEV_PEERS!.fetch(url, { method: "PUT", headers, body: data as unknown as BodyInit })
}

export async function upload(tenantId: string, f: FileSpec) {
  const init = await initiate(tenantId, f)
  expect(init.status, JSON.stringify(init.body)).toBe(200)
  const res = await put(init.body, f.data)
  expect(res.status, await res.clone().text()).toBe(200)
  return { init: init.body, complete: await api<CompleteBody & { error?: string; values?: Record<string, unknown> }>(tenantId, 'complete', { path: init.body.path }) }
}

export async function r2Keys(prefix = 'tenants/') {
  return (await testEnv.MEDIA.list({ prefix })).objects.map((o) => o.key)
}
export async function mediaRows() {
  return (await testEnv.DB_SHARD_0!.prepare('SELECT key, status FROM media_objects').all<{ key: string; status: string }>()).results
}
export async function serve(key: string, method = 'GET') {
  return mediaApp.request(`${testEnv.MEDIA_ORIGIN}/${key}`, { method }, testEnv)
}

/** A clean bucket and media table for the next test, and a fresh school. */
export async function freshSchoolAndStorage() {
  await testEnv.DB_SHARD_0!.prepare('DELETE FROM media_objects').run()
  const listed = await testEnv.MEDIA.list()
  if (listed.objects.length) await testEnv.MEDIA.delete(listed.objects.map((o) => o.key))
  return (await createTestSchool()).tenantId
}

/** A refusal leaves nothing behind: no R2 object, no row. */
export async function expectNothingStored() {
  expect(await r2Keys()).toEqual([])
  expect(await mediaRows()).toEqual([])
}
