import { describe, expect, it } from 'vitest';
import type { JobOpeningRow } from '../../../contract/jobs';
import { jobPosting } from './job-posting';

const ROW: JobOpeningRow = {
  job_id: 4,
  job_title: 'Product Designer',
  department: 'Design',
  location: 'Germany (hybrid)',
  job_type_id: 1,
  job_type_name: 'Full-time',
  description: '',
  requirement: '',
  about_role: '',
  responsibility: '',
};
const TEXT = { description: 'Design.', about: '', responsibilities: [], requirements: [] };
const posting = (row: Partial<JobOpeningRow>) => jobPosting({ ...ROW, ...row }, TEXT, 'https://manna.example');

describe('JobPosting of an opening', () => {
  it('gives the country as its ISO code and the city as the opening names them, not the free text', () => {
    const ld = posting({ work_type: 'hybrid', country: 'DE', locality: 'Berlin' });
    expect(ld).toMatchObject({
      jobLocation: { address: { addressLocality: 'Berlin', addressCountry: 'DE' } },
    });
    expect(ld).not.toHaveProperty('jobLocationType');
    expect(JSON.stringify(ld)).not.toContain('(hybrid)');
  });

  it('says where applicants to a remote opening may live: its country, else its location as written', () => {
    expect(posting({ work_type: 'remote', country: 'IN', locality: '', location: 'Remote, India' })).toMatchObject({
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: { '@type': 'Country', name: 'India' },
    });
    expect(
      posting({ work_type: 'remote', country: '', locality: '', location: 'Anywhere (UTC-5 to UTC+5:30)' }),
    ).toMatchObject({
      applicantLocationRequirements: { '@type': 'AdministrativeArea', name: 'Anywhere (UTC-5 to UTC+5:30)' },
    });
  });

  it('never calls free text a country when the opening has no place fields (a customer backend)', () => {
    const ld = posting({});
    expect(ld).toMatchObject({ jobLocation: { address: { addressLocality: 'Germany (hybrid)' } } });
    expect(JSON.stringify(ld)).not.toContain('addressCountry');
  });
});
