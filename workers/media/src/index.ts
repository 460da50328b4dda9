// Worker entry of coursefront-media: the upload API for the app, public serving, and the cron.
import { mediaApp } from './app.ts'
import { logEvent } from '../../shared/log-event.ts'
import type { MediaWorkerEnv } from './env.ts'
import { removeAbandonedUploads, sweepVideos } from './scheduled.ts'

export default {
  fetch: mediaApp.fetch,
  async scheduled(controller, env) {
    // Each sweep on its own: a failing Bunny API must not stop the R2 cleanup.
    try {
      await removeAbandonedUploads(env, controller.scheduledTime)
    } catch (error) {
      logEvent('media_cron_failed', { task: 'uploads', error: String(error) }, 'error')
    }
    try {
      await sweepVideos(env, controller.scheduledTime)
    } catch (error) {
      logEvent('media_cron_failed', { task: 'videos', error: String(error) }, 'error')
    }
  },
} satisfies ExportedHandler<MediaWorkerEnv>
