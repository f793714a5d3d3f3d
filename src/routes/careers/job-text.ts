import type { JobOpeningRow } from '../../api/contract/jobs';
import { htmlListItems, htmlToText } from '../../api/contract/rich-text';

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
