/**
 * A catalogue section: Polish must define every English key (plural keys may differ by suffix:
 * English uses _one/_other, Polish _one/_few/_many/_other).
 */
type BaseKey<K> = K extends `${infer B}_${'one' | 'few' | 'many' | 'other'}` ? B : K
export function defineMessages<const En extends Record<string, string>>(
  en: En,
  pl: Record<Exclude<keyof En, `${string}_${'one' | 'other'}`>, string> &
    Partial<Record<`${BaseKey<keyof En & string>}_${'one' | 'few' | 'many' | 'other'}`, string>>,
) {
  return { en, pl: pl as Record<string, string> }
}
