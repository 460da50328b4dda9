// The private-file API as the app reaches it, for workers/media/src/files.test.ts (the image
// helpers in test-helpers.ts play the browser's PUT).
import { expect } from 'vitest'
import { MEDIA_SERVICE_ORIGIN } from '#app/media/contract.ts'
import type { FileCompleteBody, FileInitiateBody, SignedFileBody } from '#app/media/files-contract.ts'
import { mediaApp } from './app.ts'
import { testEnv } from './test-helpers.ts'

export type Json = { error?: string; values?: Record<string, unknown> }

export async function filesApi<T = unknown>(tenantId: string, action: 'initiate' | 'complete' | 'delete' | 'sign', body: unknown, origin = MEDIA_SERVICE_ORIGIN) {
  const res = await mediaApp.request(`${origin}/tenants/${tenantId}/files/${action}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }, testEnv)
  return { status: res.status, body: (await res.json()) as T & Json }
}

export type PrivateFile = { context: 'lecture_pdf' | 'file_product'; filename: string; contentType: string; data: Uint8Array }

export function initiateFile(tenantId: string, f: PrivateFile, size = f.data.length) {
  return filesApi<FileInitiateBody>(tenantId, 'initiate', { context: f.context, filename: f.filename, extension: f.filename.split('.').pop(), size, contentType: f.contentType })
}

/** The browser's PUT: the presigned URL, exactly the headers given, no credentials. */
export function putFile(init: FileInitiateBody, data: Uint8Array) {
  return testEnv.DEV_PEERS!.fetch(init.uploadUrl, { method: 'PUT', headers: init.headers, body: data as unknown as BodyInit })
}

/** initiate → the browser's PUT through the S3 peer → complete. */
export async function uploadFile(tenantId: string, f: PrivateFile) {
  const init = await initiateFile(tenantId, f)
  expect(init.status, JSON.stringify(init.body)).toBe(200)
  const res = await putFile(init.body, f.data)
  expect(res.status, await res.clone().text()).toBe(200)
  return { init: init.body, complete: await filesApi<FileCompleteBody>(tenantId, 'complete', { path: init.body.path }) }
}

export async function sign(tenantId: string, path: string, disposition?: 'inline' | 'attachment') {
  return filesApi<SignedFileBody>(tenantId, 'sign', { path, ...(disposition ? { disposition } : {}) })
}

/** A GET/HEAD on the public media host, as server.ts forwards it (no cookies). */
export function fetchPublic(url: string, init: RequestInit = {}) {
  return mediaApp.request(url, init, testEnv)
}
