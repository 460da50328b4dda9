// Resolved by the i18n plugin in vite.config.ts: each language's catalogue as a hashed static asset.
declare module 'virtual:i18n-catalogues' {
  const urls: Record<'en' | 'pl', string>
  export default urls
}
