import { defineMessages } from './define.ts'

// The live topic feed's status line (issue 22 item 7, app/community/components/live-feed.tsx, ADR 029)
export const communityLive = defineMessages(
  {
    'community.live.paused': 'Live updates are paused. The feed checks for new posts every 30 seconds until they are back.',
    'community.live.arrived': 'New posts have been added to the feed.',
  },
  {
    'community.live.paused': 'Aktualizacje na żywo są wstrzymane. Do czasu ich powrotu co 30 sekund sprawdzamy, czy są nowe posty.',
    'community.live.arrived': 'Do listy dodano nowe posty.',
  },
)
