// Notes operators keep on a school (issue 27 §2), in the control plane: only ever added and listed,
// newest first, with who wrote them ("Name <e-mail>", kept even if the operator is later removed).
import { desc } from 'drizzle-orm'
import type { ControlDb } from '#app/db/client.server.ts'
import { operatorNotes, type OperatorNote } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const NOTE_MAX = 2000

export async function addOperatorNote(db: ControlDb, tenantId: string, note: { operatorId: string; authorLabel: string; body: string }, now = Date.now()): Promise<OperatorNote> {
  const row = { id: newId(), tenantId, operatorId: note.operatorId, authorLabel: note.authorLabel.slice(0, 300), body: note.body.slice(0, NOTE_MAX), createdAt: now }
  await db.insert(operatorNotes).values(row)
  return row
}

/** A school's notes, newest first. */
export async function listOperatorNotes(db: ControlDb, tenantId: string, limit = 50): Promise<OperatorNote[]> {
  return db.select().from(operatorNotes).where(ofTenant(operatorNotes, tenantId)).orderBy(desc(operatorNotes.createdAt), desc(operatorNotes.id)).limit(limit)
}
