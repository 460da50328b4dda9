// The school address suggested from its name at signup (issue 23 §7): the browser fills it as the
// name is typed, the server derives the same when the field is left empty. Letters lose their
// accents (Łódź → lodz), everything else becomes single hyphens, 40 characters at most.
const FOLDED: Record<string, string> = { ł: 'l', đ: 'd', ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', þ: 'th' }

export function suggestSlug(name: string) {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[łđøæœßþ]/g, (c) => FOLDED[c]!)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 40)
    .replace(/-+$/, '')
}
