import { defineMessages } from './define.ts'

// The instructor panel's navigation (issue 5).
export const instructor = defineMessages(
  {
    'instructor.nav.label': 'Instructor panel',
    'instructor.nav.dashboard': 'Dashboard',
    'instructor.nav.courses': 'Courses',
    'instructor.nav.products': 'Products',
    'instructor.nav.students': 'Students',
    'instructor.nav.leads': 'Leads',
    'instructor.nav.articles': 'Articles',
    'instructor.nav.videos': 'Videos',
    'instructor.nav.files': 'Files',
    'instructor.nav.comments': 'Comments',
    'instructor.nav.reviews': 'Reviews',
    'instructor.nav.surveys': 'Surveys',
    'instructor.nav.notifications': 'Notifications',
    'instructor.nav.page': 'Page settings',
    'instructor.nav.domain': 'Domain',
  },
  {
    'instructor.nav.label': 'Panel instruktora',
    'instructor.nav.dashboard': 'Pulpit',
    'instructor.nav.courses': 'Kursy',
    'instructor.nav.products': 'Produkty',
    'instructor.nav.students': 'Kursanci',
    'instructor.nav.leads': 'Leady',
    'instructor.nav.articles': 'Artykuły',
    'instructor.nav.videos': 'Filmy',
    'instructor.nav.files': 'Pliki',
    'instructor.nav.comments': 'Komentarze',
    'instructor.nav.reviews': 'Opinie',
    'instructor.nav.surveys': 'Ankiety',
    'instructor.nav.notifications': 'Powiadomienia',
    'instructor.nav.page': 'Ustawienia strony',
    'instructor.nav.domain': 'Domena',
  },
)
