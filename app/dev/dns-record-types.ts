/** Record types the dev DNS page can set (shared by the page and the peer client). */
export const DNS_RECORD_TYPES = ['CNAME', 'A', 'AAAA', 'TXT'] as const
