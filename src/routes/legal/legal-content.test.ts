import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEGAL_PAGES, PUBLIC_PAGES } from '../paths';
import { parseMarkdown } from './markdown';

/**
 * The legal pages are content files (src/content/legal/<lang>/<page>.md). Every language has the
 * full set, and each text states the company's facts (name, address, retention periods) in its own words.
 */
const root = path.resolve(__dirname, '../../content/legal');
const LANGS = ['en', 'ml', 'fr', 'de', 'es'] as const;
const read = (lang: string, page: string) => fs.readFileSync(path.join(root, lang, `${page}.md`), 'utf8');

const FACTS: Record<(typeof LANGS)[number], Record<string, RegExp[]>> = {
  en: {
    regions: [/European Union/, /United Kingdom/, /India/],
    tamilNadu: [/courts of Tamil Nadu/, /laws of India/],
    refunds: [
      /non-refundable once activated/,
      /refunded in full/,
      /duplicate billing/,
      /failed activation/,
      /verified technical errors/,
    ],
    digital: [/delivered digitally/],
  },
  fr: {
    regions: [/Union européenne/, /Royaume-Uni/, /Inde/],
    tamilNadu: [/tribunaux du Tamil Nadu/, /droit indien/],
    refunds: [
      /ne sont pas remboursables une fois activés/,
      /intégralement remboursée/,
      /double facturation/,
      /échec d'activation/,
      /erreur technique vérifiée/,
    ],
    digital: [/livré sous forme numérique/],
  },
  de: {
    regions: [/Europäischen Union/, /Vereinigten Königreich/, /Indien/],
    tamilNadu: [/Gerichte in Tamil Nadu/, /Recht Indiens/],
    refunds: [
      /nach der Aktivierung nicht erstattungsfähig/,
      /vollständig erstattet/,
      /doppelter Abrechnung/,
      /fehlgeschlagener Aktivierung/,
      /bestätigten technischen Fehlern/,
    ],
    digital: [/digital geliefert/],
  },
  es: {
    regions: [/Unión Europea/, /Reino Unido/, /India/],
    tamilNadu: [/tribunales de Tamil Nadu/, /leyes de la India/],
    refunds: [
      /no son reembolsables una vez activadas/,
      /reembolsa íntegramente/,
      /cobro duplicado/,
      /activación fallida/,
      /errores técnicos verificados/,
    ],
    digital: [/entrega de forma digital/],
  },
  ml: {
    regions: [/യൂറോപ്യൻ യൂണിയൻ/, /യുണൈറ്റഡ് കിംഗ്ഡം/, /ഇന്ത്യ/],
    tamilNadu: [/തമിഴ്നാട്ടിലെ കോടതികൾക്ക്/, /ഇന്ത്യൻ നിയമങ്ങൾക്ക്/],
    refunds: [
      /റീഫണ്ട് ചെയ്യില്ല/,
      /മുഴുവൻ തുകയും തിരികെ നൽകും/,
      /ഇരട്ട ബില്ലിംഗ്/,
      /പരാജയപ്പെട്ട ആക്ടിവേഷൻ/,
      /സ്ഥിരീകരിച്ച സാങ്കേതിക പിഴവുകൾ/,
    ],
    digital: [/ഡിജിറ്റലായാണ് ലഭ്യമാക്കുന്നത്/],
  },
};

const routes = new Set(PUBLIC_PAGES.map((p) => p.path));

describe.each(LANGS)('legal texts in %s', (lang) => {
  it.each(LEGAL_PAGES)('has a full, readable %s', (page) => {
    const text = read(lang, page);
    const blocks = parseMarkdown(text);
    expect(blocks.filter((b) => b.kind === 'h2').length).toBeGreaterThanOrEqual(5);
    expect(text.length).toBeGreaterThan(1000);
    // every link inside the site points to a page that exists
    for (const [, href] of text.matchAll(/\]\((\/[^)]*)\)/g)) expect(routes.has(href), href).toBe(true);
  });

  const facts = FACTS[lang];
  const privacy = () => read(lang, 'privacy-policy');
  const terms = () => read(lang, 'terms-of-service');
  const refund = () => read(lang, 'cancellation-refund-policy');
  const shipping = () => read(lang, 'shipping-policy');

  it('names the EU, the UK and India in the privacy policy, the terms and the shipping policy', () => {
    for (const text of [privacy(), terms(), shipping()])
      for (const re of facts.regions) expect(text).toMatch(re);
  });

  it("is not aimed at children under 16, and contracts need 18 or an organisation's authority", () => {
    expect(privacy()).toMatch(/16/);
    expect(privacy()).toMatch(/18/);
    expect(terms()).toMatch(/16/);
    expect(terms()).toMatch(/\*\*[^*]*18[^*]*\*\*/);
  });

  it('caps liability at what was paid in the past 12 months, under Indian law and Tamil Nadu courts', () => {
    expect(terms()).toMatch(/\*\*[^*]*12[^*]*\*\*/);
    for (const re of facts.tamilNadu) expect(terms()).toMatch(re);
  });

  it('states the refund rules in the refund policy and the terms', () => {
    for (const re of facts.refunds) expect(refund()).toMatch(re);
    expect(terms()).toMatch(facts.refunds[2]);
  });

  it('says delivery is digital', () => {
    for (const re of facts.digital) expect(shipping()).toMatch(re);
  });
});

describe('effective dates', () => {
  it.each(LANGS)('Privacy, Terms and Cookie policies are effective 01/08/2025 (%s)', (lang) => {
    const legal = JSON.parse(
      fs.readFileSync(path.resolve(__dirname, `../../i18n/locales/${lang}/legal.json`), 'utf8'),
    );
    for (const page of ['privacy-policy', 'terms-of-service', 'cookie-policy'])
      expect(legal[page].effective).toBe('01/08/2025');
    expect(legal.effective).toContain('{{date}}');
  });
});
