import type { Seeder } from './index';
import { createOpening, ensureJobType, type OpeningInput } from '../jobs.repo';

/** The job types, in this order (ids 1-5 on a new database). */
export const JOB_TYPES = ['Full-time', 'Part-time', 'Contract', 'Internship', 'Remote'] as const;

type DemoOpening = Omit<OpeningInput, 'job_type_id'> &
  Required<Pick<OpeningInput, 'work_type' | 'country' | 'locality'>> & { type: (typeof JOB_TYPES)[number] };

const list = (items: string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;

/** Demo openings: realistic texts, rich-text fields as the admin editor writes them (HTML lists). */
export const DEMO_OPENINGS: DemoOpening[] = [
  {
    job_title: 'Senior Full-Stack Engineer',
    department: 'Engineering',
    location: 'Chennai, India',
    work_type: 'onsite',
    country: 'IN',
    locality: 'Chennai',
    type: 'Full-time',
    description:
      '<p>Build the manuscript platform that journals use every day, from the submission form to the JATS export.</p>',
    about_role:
      '<p>You will own features end to end in a small product team: <strong>TypeScript</strong> on the server and in the browser, PostgreSQL, and the AI checks that save editors hours every week.</p>',
    responsibility: list([
      'Design, build and ship features across the API and the web app',
      'Keep the submission and peer-review flows fast and reliable',
      'Review code and pair with other engineers',
      'Talk to editors to understand the problems behind feature requests',
    ]),
    requirement: list([
      '5+ years building web applications in TypeScript or JavaScript',
      'Solid SQL and experience with PostgreSQL',
      'Experience with React and a Node.js server framework',
      'Clear written English',
    ]),
  },
  {
    job_title: 'Editorial Operations Specialist',
    department: 'Editorial Operations',
    location: 'London, United Kingdom',
    work_type: 'hybrid',
    country: 'GB',
    locality: 'London',
    type: 'Part-time',
    description:
      '<p>Help journals move their editorial workflow to Manna and keep their peer review running smoothly.</p>',
    about_role:
      '<p>You bring hands-on journal experience to our customers: you set up their workflows, train their editors and turn what you learn into better product defaults.</p>',
    responsibility: list([
      'Configure submission forms, reviewer pools and decision letters for new journals',
      'Train editors and editorial assistants, online and in person',
      'Check JATS XML and DOI deposits before a journal goes live',
      'Collect feedback and write it up for the product team',
    ]),
    requirement: list([
      '3+ years in journal editorial work or peer-review management',
      'Familiarity with DOI registration and JATS',
      'Careful, well-organised and calm with deadlines',
      'Available 20 hours a week, Monday to Friday',
    ]),
  },
  {
    job_title: 'Machine Learning Engineer (NLP)',
    department: 'AI Research',
    location: 'San Francisco, United States',
    work_type: 'onsite',
    country: 'US',
    locality: 'San Francisco, California',
    type: 'Contract',
    description:
      '<p>Improve the relevancy check and reviewer suggestions that run on every submitted manuscript.</p>',
    about_role:
      "<p>A six-month contract, with the option to extend, on the models that judge whether a manuscript fits a journal's scope and which reviewers know the topic best.</p>",
    responsibility: list([
      'Train and evaluate text classification and retrieval models',
      'Build evaluation sets together with working editors',
      'Ship models to production with monitoring and clear fallbacks',
    ]),
    requirement: list([
      'Experience training NLP models with PyTorch',
      'Practical knowledge of embeddings and retrieval',
      'Comfortable writing production Python',
      'Publications or open-source work are a plus',
    ]),
  },
  {
    job_title: 'Customer Success Intern',
    department: 'Customer Success',
    location: 'Kochi, India',
    work_type: 'onsite',
    country: 'IN',
    locality: 'Kochi, Kerala',
    type: 'Internship',
    description: '<p>Learn how publishers work and help them get the most out of Manna.</p>',
    about_role:
      '<p>A three-month paid internship in our customer team, with a mentor, real customers and a clear plan for what you will learn.</p>',
    responsibility: list([
      'Answer customer questions by email and chat',
      'Write and update help-centre articles',
      'Prepare onboarding material for new journals',
    ]),
    requirement: list([
      'Final-year student or recent graduate',
      'Excellent written English; Malayalam or Tamil is a plus',
      'Curious about publishing and research',
    ]),
  },
  {
    job_title: 'Technical Writer',
    department: 'Product',
    location: 'Anywhere (UTC-5 to UTC+5:30)',
    work_type: 'remote',
    country: '',
    locality: '',
    type: 'Remote',
    description:
      '<p>Write the documentation and API reference that editors, authors and developers read.</p>',
    about_role:
      '<p>You make a complex editorial platform easy to learn: guides for editors, help for authors, and an API reference for integrators.</p>',
    responsibility: list([
      'Write and maintain the help centre, training material and API reference',
      'Work with engineers on every release to document what changed',
      'Test the product the way a new editor would, and report what is confusing',
    ]),
    requirement: list([
      '3+ years of technical writing for a software product',
      'Able to read code samples and REST API descriptions',
      'A portfolio of published documentation',
    ]),
  },
];

const SEEDED = 'seed.jobs.openings';

/**
 * Job types always (missing ones are added); the demo openings once per database, remembered in
 * app_meta, so openings an admin deleted do not come back on the next start.
 */
const seedJobs: Seeder = async (db) => {
  const types = new Map<string, number>();
  for (const name of JOB_TYPES) types.set(name, (await ensureJobType(db, name)).job_type_id);

  await db.transaction().execute(async (trx) => {
    const done = await trx.selectFrom('app_meta').select('key').where('key', '=', SEEDED).executeTakeFirst();
    if (done) return;
    // Posted on the days before today, the first one most recently (the list is newest first).
    for (const [i, { type, ...opening }] of DEMO_OPENINGS.entries()) {
      const postedAt = new Date(Date.now() - (i + 1) * 86_400_000);
      await createOpening(trx, { ...opening, job_type_id: types.get(type)! }, postedAt);
    }
    await trx.insertInto('app_meta').values({ key: SEEDED, value: new Date().toISOString() }).execute();
  });
};

export default seedJobs;
