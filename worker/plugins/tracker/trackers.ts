import type { TrackerProvider } from '../../../shared/schemas/tracker.ts'
import { githubTracker } from './github.ts'
import { linearTracker } from './linear.ts'
import type { Tracker } from './tracker.ts'

/** Every tracker the integration speaks: a third one is its file, a line here and its id in shared/schemas/tracker.ts. */
export const TRACKERS: Readonly<Record<TrackerProvider, Tracker>> = {
  linear: linearTracker,
  github: githubTracker,
}
