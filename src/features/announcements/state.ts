import { featureState } from '../../core/feature';
import { AnnouncementScheduler } from './service';

/** Announcements' state: the scheduler that sends what is due. */
export const announcementState = featureState('announcements', (services) => new AnnouncementScheduler(services));
