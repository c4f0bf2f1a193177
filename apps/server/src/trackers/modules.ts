import type { TrackerKind } from '@pulsecheck/shared/trackers/rules';
import { github } from './github';
import { gitlab } from './gitlab';
import { jira } from './jira';
import { linear } from './linear';
import type { TrackerModule } from './tracker';

/** One module per tracker (decision 0023); a kind is listed in TRACKER_KINDS only once its module is finished. */
export const TRACKERS: Record<TrackerKind, TrackerModule> = { github, gitlab, linear, jira };
