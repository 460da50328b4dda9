// What tus-js-client does against the Bunny peer, in one chunk: creation, then PATCH from 0
// (tests of video uploads: the library's, posts' and comments').
import { expect } from 'vitest'
import type { VideoGrantBody } from '#app/media/video-contract.ts'

export async function tusUpload(g: VideoGrantBody['grant'], size: number) {
  const headers = { 'Tus-Resumable': '1.0.0', AuthorizationSignature: g.AuthorizationSignature, AuthorizationExpire: String(g.AuthorizationExpire), VideoId: g.VideoId, LibraryId: g.LibraryId }
  const created = await fetch(g.endpoint, { method: 'POST', headers: { ...headers, 'Upload-Length': String(size), 'Upload-Metadata': `filetype ${btoa('video/mp4')},title ${btoa(g.title)}` } })
  expect(created.status).toBe(201)
  const patched = await fetch(new URL(created.headers.get('Location')!, g.endpoint), {
    method: 'PATCH',
    headers: { ...headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    body: new Uint8Array(size).fill(7),
  })
  expect(patched.status).toBe(204)
}
