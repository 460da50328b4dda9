// Development only: the records of the local DNS-over-HTTPS peer (workers/dev-peers), reached
// through the DEV_PEERS service binding.
import { z } from 'zod'
import type { Env } from '#app/utils/env.server.ts'
import { DNS_RECORD_TYPES } from './dns-record-types.ts'

const RecordSchema = z.object({ id: z.string(), name: z.string(), type: z.enum(DNS_RECORD_TYPES), value: z.string() })
export type PeerDnsRecord = z.infer<typeof RecordSchema>

const ORIGIN = 'https://dev-peers.internal'

export async function listPeerDnsRecords(env: Env): Promise<PeerDnsRecord[] | null> {
  if (!env.DEV_PEERS) return null
  try {
    const res = await env.DEV_PEERS.fetch(`${ORIGIN}/_peer/dns/records`)
    if (!res.ok) return null
    const parsed = z.object({ records: z.array(RecordSchema) }).safeParse(await res.json())
    return parsed.success ? parsed.data.records : null
  } catch {
    return null
  }
}

export async function addPeerDnsRecord(env: Env, record: Omit<PeerDnsRecord, 'id'>) {
  if (!env.DEV_PEERS) return false
  const res = await env.DEV_PEERS.fetch(`${ORIGIN}/_peer/dns/records`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(record) })
  return res.ok
}

export async function deletePeerDnsRecord(env: Env, id: string) {
  if (!env.DEV_PEERS) return false
  const res = await env.DEV_PEERS.fetch(`${ORIGIN}/_peer/dns/records/${encodeURIComponent(id)}`, { method: 'DELETE' })
  return res.ok
}
