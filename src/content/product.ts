import type { IconName } from '../components/marketing/marketing-icons';

/**
 * Static data of the Manuscript Automation page. Texts live in the
 * `product` translation namespace under the same ids.
 */

/** 'Everything You Need in One Platform': eight capabilities. */
export const CAPABILITIES: { id: string; icon: IconName }[] = [
  { id: 'submissions', icon: 'submission' },
  { id: 'peerReview', icon: 'review' },
  { id: 'plagiarism', icon: 'plagiarism' },
  { id: 'relevancy', icon: 'relevancy' },
  { id: 'workflow', icon: 'workflow' },
  { id: 'references', icon: 'references' },
  { id: 'doi', icon: 'doi' },
  { id: 'jats', icon: 'jats' },
];

/** The editorial flow: 13 steps in the spec's order, shown in rows of 7 and 6. */
export const EDITORIAL_STEPS = [
  'submission',
  'relevancyCheck',
  'journalSuggestion',
  'plagiarismCheck',
  'doiCheck',
  'editor',
  'peerReview',
  'eic',
  'finalEditing',
  'pageSetting',
  'proofReading',
  'publish',
  'contentDistribution',
] as const;
/** Steps in the first row on wide screens (the rest make the second row). */
export const FIRST_ROW = 7;

/** 'Why Publishers Choose Manna': the claimed benefits. */
export const BENEFITS: { id: string; icon: IconName }[] = [
  { id: 'time', icon: 'clock' },
  { id: 'organised', icon: 'layers' },
  { id: 'compliance', icon: 'compliance' },
  { id: 'chatbots', icon: 'chatbot' },
  { id: 'ai', icon: 'sparkles' },
];

/** Ten integrations by kind: neutral wordmark tiles, no third-party marks. */
export const INTEGRATIONS: { id: string; mark: 'ring' | 'book' | 'leaf' | 'hex' | 'grid' | 'spark' }[] = [
  { id: 'doiAgency', mark: 'ring' },
  { id: 'plagiarismService', mark: 'hex' },
  { id: 'oaDirectory', mark: 'leaf' },
  { id: 'biomedicalDatabase', mark: 'grid' },
  { id: 'educationDatabase', mark: 'book' },
  { id: 'libraryVendor', mark: 'book' },
  { id: 'researchDatabase', mark: 'grid' },
  { id: 'openInfrastructure', mark: 'ring' },
  { id: 'scholarlySearch', mark: 'hex' },
  { id: 'aiScholarSearch', mark: 'spark' },
];

/** The screenshots section: illustrations of three product screens. */
export const SCREENS = ['dashboard', 'review', 'checks'] as const;
