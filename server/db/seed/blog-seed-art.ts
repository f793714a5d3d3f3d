/**
 * Original featured-image artwork for the demo blog posts: flat vector scenes (1200x630, the
 * Open Graph size) drawn from a few motifs in the site's palette. Plain SVG without script,
 * links, foreign objects or external references; served from /media with a sandboxing CSP.
 */

export type Motif =
  | 'notebook'
  | 'manuscript'
  | 'draft'
  | 'letter'
  | 'archive'
  | 'revision'
  | 'scales'
  | 'footnote'
  | 'interview'
  | 'timeline'
  | 'newspaper'
  | 'desk';

interface Palette {
  sky: [string, string];
  ink: string;
  paper: string;
  accent: string;
  soft: string;
}

const PALETTES: Palette[] = [
  { sky: ['#e8eefc', '#c9d8fb'], ink: '#14213d', paper: '#fffdf7', accent: '#1d4ed8', soft: '#93b0f5' },
  { sky: ['#fff4e0', '#fde1b0'], ink: '#3b2a14', paper: '#fffaf0', accent: '#d97706', soft: '#f3c27a' },
  { sky: ['#e7f6ec', '#bfe6cc'], ink: '#143d24', paper: '#fbfffc', accent: '#15803d', soft: '#86cfa0' },
  { sky: ['#f1eafc', '#d9c8f7'], ink: '#2a1a4a', paper: '#fdfbff', accent: '#6d3fd1', soft: '#b9a0ec' },
];

const lines = (x: number, y: number, width: number, count: number, gap: number, color: string, widths?: number[]) =>
  Array.from({ length: count }, (_, i) => {
    const w = widths ? widths[i % widths.length] * width : width;
    return `<rect x="${x}" y="${y + i * gap}" width="${w}" height="8" rx="4" fill="${color}"/>`;
  }).join('');

const paperSheet = (x: number, y: number, w: number, h: number, p: Palette, rotate = 0) =>
  `<g transform="rotate(${rotate} ${x + w / 2} ${y + h / 2})"><rect x="${x + 10}" y="${y + 12}" width="${w}" height="${h}" rx="10" fill="${p.ink}" opacity="0.12"/><rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="${p.paper}" stroke="${p.ink}" stroke-opacity="0.15" stroke-width="3"/>${lines(x + 36, y + 50, w - 72, Math.floor((h - 80) / 34), 34, p.soft, [1, 0.92, 0.96, 0.7])}</g>`;

const quill = (x: number, y: number, p: Palette) =>
  `<g transform="translate(${x} ${y}) rotate(-35)"><path d="M0 0 C40 -120 120 -220 210 -260 C170 -170 110 -80 18 8 Z" fill="${p.accent}"/><path d="M0 0 L200 -250" stroke="${p.paper}" stroke-width="4" stroke-linecap="round" opacity="0.8"/><path d="M0 0 L-18 40" stroke="${p.ink}" stroke-width="8" stroke-linecap="round"/></g>`;

const MOTIFS: Record<Motif, (p: Palette) => string> = {
  notebook: (p) =>
    `${paperSheet(330, 120, 540, 400, p)}<rect x="330" y="120" width="40" height="400" rx="8" fill="${p.accent}"/>` +
    Array.from({ length: 9 }, (_, i) => `<circle cx="350" cy="${150 + i * 42}" r="7" fill="${p.paper}"/>`).join('') +
    `<rect x="640" y="420" width="170" height="60" rx="8" fill="${p.accent}" opacity="0.85"/><path d="M660 450 h130" stroke="${p.paper}" stroke-width="6" stroke-linecap="round"/>`,
  manuscript: (p) =>
    `${paperSheet(300, 90, 600, 460, p, -2)}` +
    Array.from(
      { length: 7 },
      (_, i) =>
        `<path d="M360 ${170 + i * 48} c40 -22 80 22 120 0 s80 -22 120 0 s80 22 120 0 s60 -18 90 0" fill="none" stroke="${p.ink}" stroke-width="4" stroke-linecap="round" opacity="${0.75 - i * 0.05}"/>`,
    ).join('') +
    `<circle cx="880" cy="470" r="70" fill="${p.accent}" opacity="0.9"/><circle cx="880" cy="470" r="50" fill="none" stroke="${p.paper}" stroke-width="6"/><path d="M930 520 l60 60" stroke="${p.ink}" stroke-width="22" stroke-linecap="round"/>`,
  draft: (p) =>
    `${paperSheet(250, 150, 360, 380, p, -6)}${paperSheet(470, 110, 380, 400, p, 4)}` +
    `<path d="M520 210 q120 60 40 150 t160 120" fill="none" stroke="${p.accent}" stroke-width="8" stroke-dasharray="18 14" stroke-linecap="round"/>` +
    `<circle cx="520" cy="210" r="16" fill="${p.accent}"/><circle cx="720" cy="480" r="16" fill="${p.ink}"/>${quill(900, 500, p)}`,
  letter: (p) =>
    `<g transform="rotate(-4 600 330)"><rect x="300" y="170" width="600" height="340" rx="12" fill="${p.paper}" stroke="${p.ink}" stroke-opacity="0.2" stroke-width="3"/>` +
    `<path d="M300 182 L600 380 L900 182" fill="none" stroke="${p.ink}" stroke-opacity="0.25" stroke-width="4"/>` +
    `<rect x="770" y="200" width="100" height="120" rx="6" fill="${p.accent}"/><rect x="784" y="214" width="72" height="92" rx="4" fill="none" stroke="${p.paper}" stroke-width="4" stroke-dasharray="6 6"/>` +
    `<circle cx="720" cy="290" r="56" fill="none" stroke="${p.ink}" stroke-width="5" opacity="0.55"/>${lines(360, 420, 300, 3, 30, p.soft)}</g>`,
  archive: (p) =>
    [0, 1, 2]
      .map((row) =>
        [0, 1, 2, 3]
          .map(
            (col) =>
              `<rect x="${250 + col * 180}" y="${110 + row * 150}" width="160" height="128" rx="8" fill="${(row + col) % 3 === 0 ? p.accent : p.paper}" stroke="${p.ink}" stroke-opacity="0.25" stroke-width="3"/><rect x="${300 + col * 180}" y="${150 + row * 150}" width="60" height="26" rx="4" fill="${(row + col) % 3 === 0 ? p.paper : p.soft}"/>`,
          )
          .join(''),
      )
      .join('') + `<rect x="230" y="560" width="760" height="16" rx="8" fill="${p.ink}" opacity="0.6"/>`,
  revision: (p) =>
    `${paperSheet(340, 90, 520, 470, p)}` +
    [0, 1, 2].map((i) => `<path d="M390 ${175 + i * 102} h300" stroke="${p.accent}" stroke-width="6" stroke-linecap="round"/>`).join('') +
    `<path d="M390 220 q150 -40 300 0" fill="none" stroke="${p.ink}" stroke-width="5"/><path d="M700 330 l40 -40 l40 40" fill="none" stroke="${p.accent}" stroke-width="7" stroke-linecap="round"/>` +
    `<g fill="${p.ink}" font-family="Georgia, serif" font-size="64" font-weight="700"><text x="880" y="200">1</text><text x="880" y="330">2</text><text x="880" y="460">3</text></g>`,
  scales: (p) =>
    `<path d="M600 130 v360" stroke="${p.ink}" stroke-width="14" stroke-linecap="round"/><path d="M380 200 h440" stroke="${p.ink}" stroke-width="12" stroke-linecap="round"/>` +
    `<path d="M380 200 l-80 170 h160 z" fill="none" stroke="${p.ink}" stroke-width="4"/><path d="M820 200 l-80 200 h160 z" fill="none" stroke="${p.ink}" stroke-width="4"/>` +
    `<path d="M290 370 a90 40 0 0 0 180 0 z" fill="${p.accent}"/><path d="M730 400 a90 40 0 0 0 180 0 z" fill="${p.soft}"/>` +
    `<rect x="330" y="300" width="90" height="64" rx="6" fill="${p.paper}" stroke="${p.ink}" stroke-opacity="0.3" stroke-width="3"/><rect x="770" y="318" width="100" height="76" rx="6" fill="${p.paper}" stroke="${p.ink}" stroke-opacity="0.3" stroke-width="3"/>` +
    `<rect x="500" y="480" width="200" height="40" rx="12" fill="${p.ink}"/>`,
  footnote: (p) =>
    `${paperSheet(330, 70, 540, 500, p)}<path d="M380 430 h440" stroke="${p.ink}" stroke-width="3" opacity="0.5"/>` +
    `<g font-family="Georgia, serif" fill="${p.accent}" font-weight="700"><text x="660" y="190" font-size="40">1</text><text x="540" y="290" font-size="40">2</text><text x="380" y="485" font-size="30">1</text><text x="380" y="530" font-size="30">2</text></g>` +
    lines(420, 470, 360, 2, 45, p.soft),
  interview: (p) =>
    `<path d="M250 170 h380 a30 30 0 0 1 30 30 v150 a30 30 0 0 1 -30 30 h-250 l-70 60 v-60 h-60 a30 30 0 0 1 -30 -30 v-150 a30 30 0 0 1 30 -30 z" fill="${p.accent}"/>` +
    `<path d="M950 260 h-330 a30 30 0 0 0 -30 30 v150 a30 30 0 0 0 30 30 h200 l70 60 v-60 h60 a30 30 0 0 0 30 -30 v-150 a30 30 0 0 0 -30 -30 z" fill="${p.paper}" stroke="${p.ink}" stroke-opacity="0.2" stroke-width="3"/>` +
    lines(290, 230, 300, 3, 34, p.paper, [1, 0.8, 0.55]) +
    lines(640, 320, 260, 3, 34, p.soft, [1, 0.75, 0.9]) +
    `<rect x="560" y="520" width="80" height="70" rx="10" fill="${p.ink}"/><circle cx="600" cy="555" r="18" fill="${p.paper}"/>`,
  timeline: (p) =>
    `<path d="M180 330 h840" stroke="${p.ink}" stroke-width="10" stroke-linecap="round"/>` +
    [0, 1, 2, 3, 4]
      .map((i) => {
        const x = 240 + i * 180;
        const up = i % 2 === 0;
        return `<circle cx="${x}" cy="330" r="22" fill="${i === 2 ? p.accent : p.paper}" stroke="${p.ink}" stroke-width="6"/><path d="M${x} ${up ? 308 : 352} v${up ? -70 : 70}" stroke="${p.ink}" stroke-width="4"/><rect x="${x - 70}" y="${up ? 150 : 420}" width="140" height="88" rx="10" fill="${p.paper}" stroke="${p.ink}" stroke-opacity="0.2" stroke-width="3"/>${lines(x - 50, up ? 176 : 446, 100, 2, 30, i === 2 ? p.accent : p.soft)}`;
      })
      .join(''),
  newspaper: (p) =>
    `<g transform="rotate(3 600 330)"><rect x="270" y="90" width="660" height="470" rx="8" fill="${p.paper}" stroke="${p.ink}" stroke-opacity="0.2" stroke-width="3"/>` +
    `<rect x="310" y="120" width="580" height="54" rx="4" fill="${p.ink}"/><rect x="310" y="196" width="270" height="170" rx="4" fill="${p.soft}"/>` +
    lines(610, 200, 280, 5, 34, p.soft, [1, 0.9, 1, 0.8, 0.95]) +
    lines(310, 400, 270, 4, 34, p.soft, [1, 0.85, 0.95, 0.7]) +
    lines(610, 400, 280, 4, 34, p.soft, [0.9, 1, 0.8, 0.95]) +
    `</g><circle cx="960" cy="470" r="80" fill="none" stroke="${p.accent}" stroke-width="12"/><path d="M1015 525 l70 70" stroke="${p.accent}" stroke-width="22" stroke-linecap="round"/>`,
  desk: (p) =>
    `<rect x="160" y="470" width="880" height="26" rx="8" fill="${p.ink}"/><rect x="220" y="496" width="22" height="110" fill="${p.ink}"/><rect x="958" y="496" width="22" height="110" fill="${p.ink}"/>` +
    `<rect x="260" y="300" width="90" height="170" rx="6" fill="${p.accent}"/><rect x="355" y="330" width="70" height="140" rx="6" fill="${p.soft}"/><rect x="430" y="280" width="80" height="190" rx="6" fill="${p.ink}" opacity="0.8"/>` +
    `${paperSheet(600, 340, 240, 130, p, -3)}<path d="M900 470 v-150" stroke="${p.ink}" stroke-width="8"/><path d="M860 320 h80 l-20 -70 h-40 z" fill="${p.accent}"/>` +
    `<circle cx="900" cy="200" r="70" fill="${p.accent}" opacity="0.18"/>`,
};

/** One featured image: a soft sky, a few round shapes, the motif. Deterministic for a seed. */
export function featuredImageSvg(motif: Motif, seed: number): string {
  const p = PALETTES[seed % PALETTES.length];
  const bubbles = [0, 1, 2]
    .map((i) => {
      const cx = ((seed * 197 + i * 389) % 1100) + 50;
      const cy = ((seed * 131 + i * 257) % 520) + 50;
      const r = 40 + ((seed + i * 7) % 5) * 22;
      return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${p.paper}" opacity="0.35"/>`;
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 630" width="1200" height="630">` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.sky[0]}"/><stop offset="1" stop-color="${p.sky[1]}"/></linearGradient></defs>` +
    `<rect width="1200" height="630" fill="url(#sky)"/>${bubbles}${MOTIFS[motif](p)}</svg>`
  );
}
