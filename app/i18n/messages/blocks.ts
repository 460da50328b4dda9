import { defineMessages } from './define.ts'

// Block renderers on the storefront and the props validation of app/storefront/blocks.ts.
export const blocks = defineMessages(
  {
    'blocks.lead.duplicate_name': 'Each field needs its own name (not block_id or subpage_id)',
    'blocks.lead.email_required': 'The form needs an email field',
    'blocks.video.invalid_url': 'Paste a YouTube or Vimeo link, or choose a video from your library',
    'validation.url': 'Use a path on your site or an http(s) address',
  },
  {
    'blocks.lead.duplicate_name': 'Każde pole musi mieć własną nazwę (nie block_id ani subpage_id)',
    'blocks.lead.email_required': 'Formularz musi mieć pole e-mail',
    'blocks.video.invalid_url': 'Wklej link do YouTube lub Vimeo albo wybierz film z biblioteki',
    'validation.url': 'Użyj ścieżki w Twojej witrynie lub adresu http(s)',
  },
)
