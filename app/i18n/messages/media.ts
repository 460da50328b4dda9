import { defineMessages } from './define.ts'

// Uploads and hosted video (app/media). Seed texts: 'Bad file extension', 'Max size: {size} MB',
// 'File too big', 'Upload failed' (seed 001 §5, §8); 'upload is currently locked; retry later',
// 'OK', 'Saved' and the transcoding notice (seed 000 §4, §8). Reused from common.ts, not repeated
// here: 'Something went wrong' (`error.generic.title`) and 'Your session has expired - please
// reload' (`error.session_expired_reload`).
export const media = defineMessages(
  {
    'media.error.empty': 'The file is empty.',
    'media.error.bad_extension': 'Bad file extension',
    'media.error.max_size': 'Max size: {size} MB',
    'media.error.too_big': 'File too big',
    'media.error.type_mismatch': 'The contents of this file do not match its extension.',
    'media.error.unsupported': 'This file cannot be uploaded: its contents are not an allowed file type.',
    'media.error.unsafe_svg': 'This SVG contains scripts, event handlers or links to other files and cannot be used. Export it again as a plain image.',
    'media.error.upload_failed': 'Upload failed',
    'media.error.locked': 'upload is currently locked; retry later',
    'media.upload.ok': 'OK',
    'media.upload.saved': 'Saved',
    'media.upload.progress': 'Uploading… {percent}%',
    'media.upload.retrying_one': 'Connection lost. Retrying in {count} second…',
    'media.upload.retrying_other': 'Connection lost. Retrying in {count} seconds…',
    'media.video.transcoding': 'This video is now transcoding. Please reload the page in few minutes to check if it has uploaded correctly.',
    'media.video.processing': 'This video is still processing.',
    'media.video.failed': 'This video could not be processed. Please upload it again.',
  },
  {
    'media.error.empty': 'Plik jest pusty.',
    'media.error.bad_extension': 'Nieprawidłowe rozszerzenie pliku',
    'media.error.max_size': 'Maksymalny rozmiar: {size} MB',
    'media.error.too_big': 'Plik jest za duży',
    'media.error.type_mismatch': 'Zawartość pliku nie zgadza się z jego rozszerzeniem.',
    'media.error.unsupported': 'Nie można przesłać tego pliku: jego zawartość nie jest dozwolonym typem pliku.',
    'media.error.unsafe_svg': 'Ten plik SVG zawiera skrypty, obsługę zdarzeń lub odwołania do innych plików i nie może zostać użyty. Wyeksportuj go ponownie jako zwykły obraz.',
    'media.error.upload_failed': 'Przesyłanie nie powiodło się',
    'media.error.locked': 'przesyłanie jest chwilowo zablokowane; spróbuj ponownie później',
    'media.upload.ok': 'OK',
    'media.upload.saved': 'Zapisano',
    'media.upload.progress': 'Przesyłanie… {percent}%',
    'media.upload.retrying_one': 'Utracono połączenie. Ponowna próba za {count} sekundę…',
    'media.upload.retrying_few': 'Utracono połączenie. Ponowna próba za {count} sekundy…',
    'media.upload.retrying_many': 'Utracono połączenie. Ponowna próba za {count} sekund…',
    'media.upload.retrying_other': 'Utracono połączenie. Ponowna próba za {count} sekundy…',
    'media.video.transcoding': 'To wideo jest właśnie przetwarzane. Odśwież stronę za kilka minut, aby sprawdzić, czy zostało poprawnie przesłane.',
    'media.video.processing': 'To wideo jest jeszcze przetwarzane.',
    'media.video.failed': 'Nie udało się przetworzyć tego wideo. Prześlij je ponownie.',
  },
)
