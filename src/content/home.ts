import type { IconName } from '../components/marketing/marketing-icons';

/**
 * Static data of the home page. Texts live in the `home` translation
 * namespace under the same ids; this file holds what does not change with the language.
 */

/** The five reasons of 'Why SMEs Choose Manna'. */
export const REASONS: { id: string; icon: IconName }[] = [
  { id: 'fast', icon: 'fast' },
  { id: 'easy', icon: 'easy' },
  { id: 'noIt', icon: 'noIt' },
  { id: 'scales', icon: 'scales' },
  { id: 'affordable', icon: 'affordable' },
];

/** The twelve features of the manuscript platform, one card each. */
export const FEATURES: { id: string; icon: IconName }[] = [
  { id: 'submissions', icon: 'submission' },
  { id: 'peerReview', icon: 'review' },
  { id: 'plagiarism', icon: 'plagiarism' },
  { id: 'relevancy', icon: 'relevancy' },
  { id: 'workflow', icon: 'workflow' },
  { id: 'references', icon: 'references' },
  { id: 'doi', icon: 'doi' },
  { id: 'jats', icon: 'jats' },
  { id: 'distribution', icon: 'distribution' },
  { id: 'reports', icon: 'reports' },
  { id: 'documents', icon: 'documents' },
  { id: 'roles', icon: 'roles' },
];

/** Three client tiles: neutral wordmarks naming the kind of publisher, no third-party marks. */
export const CLIENTS: { id: string; mark: 'ring' | 'book' | 'leaf' }[] = [
  { id: 'universityPress', mark: 'book' },
  { id: 'medicalSociety', mark: 'ring' },
  { id: 'openAccess', mark: 'leaf' },
];

/** A testimonial card: id, name, title, quote, image. */
export interface Testimonial {
  id: number;
  name: string;
  title: string;
  quote: string;
  image: string;
}

/**
 * The four static testimonials. Names and portraits are fixed; the title and quote are
 * translated (home namespace, `testimonials.items.<id>`). Portraits are original illustrations.
 */
export const TESTIMONIALS: Omit<Testimonial, 'title' | 'quote'>[] = [
  { id: 1, name: 'Dr. Meera Krishnan', image: '/images/people/meera.svg' },
  { id: 2, name: 'Daniel Hughes', image: '/images/people/daniel.svg' },
  { id: 3, name: 'Prof. Amara Okafor', image: '/images/people/amara.svg' },
  { id: 4, name: 'Lucas Moreau', image: '/images/people/lucas.svg' },
];
