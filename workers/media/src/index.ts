// Worker entry of coursefront-media: the upload API for the app, public serving, and the cron.
import { mediaApp } from './app.ts'
import { logEvent, type MediaWorkerEnv } from './env.ts'
import { removeAbandonedUploads } from './scheduled.ts'

export default {
  fetch: mediaApp.fetch,
  async scheduled(controller, env) {
    try {
      await removeAbandonedUploads(env, controller.scheduledTime)
    } catch (error) {
      logEvent('media_cron_failed', { error: String(error) }, 'error')
    }
  },
} satisfies ExportedHandler<MediaWorkerEnv>
