import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { createStaticI18n } from '../../i18n/i18n';
import en from '../../i18n/locales/en/contact.json';
import { OFFICES, type Office } from '../../content/offices';
import { MAP_HEIGHT, MAP_WIDTH, project } from '../../content/world-map';
import { OfficeMap } from './office-map';

const render = (offices: Office[]) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={createStaticI18n('en', { en: { contact: en } })}>
      <OfficeMap offices={offices} />
    </I18nextProvider>,
  );

describe('office map', () => {
  it('has a marker button per office whose tooltip holds city, country, address, phone and email', () => {
    const html = render(OFFICES);
    expect(html.match(/<button/g)).toHaveLength(2);
    expect(html).toContain('aria-label="London, United Kingdom office"');
    for (const o of OFFICES) {
      for (const text of [o.address, o.phone, o.email]) expect(html).toContain(text);
    }
    // tooltips are in the page (prerendered) but hidden until hover or focus
    expect(html.match(/role="tooltip"[^>]*hidden/g)).toHaveLength(2);
    // neither office of the spec is the headquarters
    expect(html).not.toContain('>HQ<');
  });

  it('shows the HQ badge for a headquarters', () => {
    const html = render([{ ...OFFICES[0], isHeadquarters: true }]);
    expect(html).toContain('>HQ<');
  });

  it('places London and San Francisco where they are', () => {
    const london = project(-0.1278, 51.5074);
    const sf = project(-122.4194, 37.7749);
    expect(london.x / MAP_WIDTH).toBeCloseTo(0.5, 2);
    expect(sf.x / MAP_WIDTH).toBeCloseTo(0.16, 2);
    expect(london.y).toBeLessThan(sf.y); // further north
    expect(sf.y).toBeLessThan(MAP_HEIGHT / 2);
  });
});
