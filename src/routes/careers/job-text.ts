import type { JobOpeningRow } from '../../../contract/jobs';
import { htmlListItems, htmlToText } from '../../../contract/rich-text';

/** What a careers card says of an opening, from its rich-text fields. */
export interface JobCardText {
  about: string;
  responsibilities: string[];
  requirements: string[];
}

export function jobCardText(row: JobOpeningRow): JobCardText {
  return {
    about: htmlToText(row.about_role),
    responsibilities: htmlListItems(row.responsibility),
    requirements: htmlListItems(row.requirement),
  };
}

/** The job types the pages translate (careers `card.types`), by their name as stored. */
const JOB_TYPE_KEYS: Record<string, string> = {
  'full-time': 'fullTime',
  'full time': 'fullTime',
  'part-time': 'partTime',
  'part time': 'partTime',
  contract: 'contract',
  internship: 'internship',
  remote: 'remote',
  temporary: 'temporary',
};

/** The key of a job type's name in the page's language, or undefined for a type staff added. */
export const jobTypeKey = (name: string): string | undefined => JOB_TYPE_KEYS[name.trim().toLowerCase()];
