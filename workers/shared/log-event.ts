/** One JSON line per event, like the app's logs: every worker logs through this one. */
export function logEvent(event: string, fields: Record<string, unknown> = {}, level: 'info' | 'error' = 'info') {
  const line = JSON.stringify({ event, ...fields })
  if (level === 'error') console.error(line)
  else console.log(line)
}
