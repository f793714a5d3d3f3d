#!/usr/bin/env node
// Draws public/og-image.png (1200 x 630), the link-preview image of every page (og:image,
// twitter:image): most previewers do not show SVG, so the SVG below is rendered once in the
// system Chromium and the PNG is committed. Run again after changing the drawing:
//   node scripts/build-og-image.mjs
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromePath } from './lib/common.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const OUT = path.join(ROOT, 'public', 'og-image.png');

const bars = [
  [0, 18],
  [34, 28],
  [68, 24],
  [102, 38],
  [136, 46],
]
  .map(([x, h], i) => `<rect x="${x}" y="${56 - h}" width="22" height="${h}" rx="5" fill="${i === 4 ? '#1d4ed8' : '#b7c6ef'}"/>`)
  .join('');
const rows = [0, 1, 2, 3]
  .map(
    (i) => `
    <rect x="0" y="${i * 46}" width="330" height="36" rx="8" fill="#fff" stroke="#dfe4ee"/>
    <circle cx="20" cy="${i * 46 + 18}" r="8" fill="${['#1d4ed8', '#d97706', '#15803d', '#1d4ed8'][i]}"/>
    <rect x="38" y="${i * 46 + 11}" width="${[150, 120, 170, 134][i]}" height="7" rx="3.5" fill="#14213d" opacity=".75"/>
    <rect x="38" y="${i * 46 + 22}" width="${[90, 110, 80, 100][i]}" height="5" rx="2.5" fill="#b7c6ef"/>
    <rect x="252" y="${i * 46 + 10}" width="62" height="16" rx="8" fill="${['#e8eefc', '#fff4e0', '#e7f6ec', '#e8eefc'][i]}"/>`,
  )
  .join('');

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#13275c"/><stop offset=".6" stop-color="#0f1a33"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <circle cx="1010" cy="90" r="260" fill="#93b4ff" opacity=".08"/>
  <g fill="#93b4ff" opacity=".35">${Array.from({ length: 3 }, (_, r) =>
    Array.from({ length: 8 }, (_, c) => `<circle cx="${80 + c * 22}" cy="${540 + r * 18}" r="2.4"/>`).join(''),
  ).join('')}</g>
  <g transform="translate(80 80)">
    <rect width="64" height="64" rx="16" fill="#1d4ed8"/>
    <path d="M14 45c6-3.2 12-3.2 18 0 6-3.2 12-3.2 18 0" stroke="#fff" stroke-width="4.4" fill="none" stroke-linecap="round"/>
    <path d="M32 45V26" stroke="#fff" stroke-width="4.4" stroke-linecap="round"/>
    <circle cx="20" cy="24" r="4" fill="#fbbf24"/><circle cx="32" cy="17" r="4" fill="#fbbf24"/><circle cx="44" cy="24" r="4" fill="#fbbf24"/>
    <text x="84" y="45" font-family="DejaVu Sans, sans-serif" font-size="38" font-weight="700" fill="#fff">Manna</text>
  </g>
  <text font-family="DejaVu Sans, sans-serif" font-weight="700" fill="#fff" font-size="56" letter-spacing="-1">
    <tspan x="80" y="248">Smart automation</tspan><tspan x="80" y="316">for SMEs,</tspan><tspan x="80" y="384">powered by AI</tspan>
  </text>
  <text font-family="DejaVu Sans, sans-serif" fill="#b4bfd6" font-size="26">
    <tspan x="80" y="450">AI-powered manuscript and editorial</tspan><tspan x="80" y="486">management for journals</tspan>
  </text>
  <g transform="translate(760 170)">
    <rect x="10" y="14" width="380" height="330" rx="20" fill="#000" opacity=".25"/>
    <rect width="380" height="330" rx="20" fill="#f5f7fb"/>
    <path d="M0 20a20 20 0 0 1 20-20h340a20 20 0 0 1 20 20v22H0z" fill="#fff"/>
    <circle cx="24" cy="21" r="6" fill="#f87171"/><circle cx="44" cy="21" r="6" fill="#fbbf24"/><circle cx="64" cy="21" r="6" fill="#34d399"/>
    <g transform="translate(25 64)">${rows}</g>
    <g transform="translate(25 250)"><rect width="190" height="64" rx="10" fill="#fff" stroke="#dfe4ee"/><g transform="translate(16 0)">${bars}</g></g>
    <g transform="translate(300 282)"><circle r="34" fill="#fff" stroke="#dfe4ee"/><circle r="23" fill="none" stroke="#e7f6ec" stroke-width="8"/>
      <circle r="23" fill="none" stroke="#15803d" stroke-width="8" stroke-dasharray="122 145" stroke-linecap="round" transform="rotate(-90)"/>
      <path d="M-9 0l6 6 12-12" stroke="#15803d" stroke-width="4" fill="none" stroke-linecap="round" stroke-linejoin="round"/></g>
  </g>
  <g transform="translate(700 120)">
    <rect width="150" height="58" rx="14" fill="#1d4ed8"/>
    <path d="M26 14l3.4 9.6 9.6 3.4-9.6 3.4-3.4 9.6-3.4-9.6-9.6-3.4 9.6-3.4z" fill="#fff"/>
    <rect x="52" y="18" width="80" height="8" rx="4" fill="#fff"/><rect x="52" y="33" width="56" height="7" rx="3.5" fill="#fff" opacity=".6"/>
  </g>
</svg>`;

const browser = await chromium.launch({ executablePath: chromePath(), headless: true, args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
  await page.screenshot({ path: OUT, clip: { x: 0, y: 0, width: 1200, height: 630 } });
} finally {
  await browser.close();
}
console.log(`og image: ${path.relative(ROOT, OUT)} (${fs.statSync(OUT).size} bytes)`);
