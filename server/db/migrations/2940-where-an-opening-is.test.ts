import { describe, expect, it } from 'vitest';
import { placeOf } from './2940-where-an-opening-is';

describe('where an opening kept before is, read from its location', () => {
  it.each([
    ['Kochi, India', 'Full-time', { work_type: 'onsite', country: 'IN', locality: 'Kochi' }],
    ['London, United Kingdom', 'Part-time', { work_type: 'onsite', country: 'GB', locality: 'London' }],
    ['Berlin, Germany (hybrid)', 'Full-time', { work_type: 'hybrid', country: 'DE', locality: 'Berlin' }],
    ['Germany (hybrid)', 'Full-time', { work_type: 'hybrid', country: 'DE', locality: '' }],
    ['Abidjan, Côte d\'Ivoire', 'Contract', { work_type: 'onsite', country: 'CI', locality: 'Abidjan' }],
    ['Anywhere (UTC-5 to UTC+5:30)', 'Remote', { work_type: 'remote', country: '', locality: '' }],
    ['Remote, Germany', 'Full-time', { work_type: 'remote', country: 'DE', locality: '' }],
    ['Head office', 'Full-time', { work_type: 'onsite', country: '', locality: '' }],
  ])('%s (%s)', (location, type, place) => {
    expect(placeOf(location, type)).toEqual(place);
  });
});
