/* Original illustrations of the Manuscript Automation page (decorative). */
import type { ReactNode } from 'react';

const BRAND = '#1d4ed8';
const SOFT = '#e8eefc';
const MID = '#b7c6ef';
const INK = '#14213d';
const LINE = '#dfe4ee';
const ALT = '#f5f7fb';
const GREEN = '#15803d';
const AMBER = '#d97706';

const bar = (x: number, y: number, w: number, fill = MID, h = 7) => (
  <rect key={`${x}-${y}`} x={x} y={y} width={w} height={h} rx={h / 2} fill={fill} />
);

/** Banner: a manuscript passing AI checks and review on its way to publication. */
export function BannerArt({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      width="520"
      height="400"
      viewBox="0 0 520 400"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="270" cy="200" r="180" fill="#fff" opacity="0.08" />
      <path
        d="M176 212C200 150 220 118 250 118S300 238 330 238 410 140 440 140s44 60 0 110"
        stroke="#93b4ff"
        strokeWidth="3"
        strokeDasharray="2 10"
        strokeLinecap="round"
        fill="none"
      />
      {/* manuscript */}
      <g transform="rotate(-6 110 230)">
        <rect x="48" y="140" width="130" height="170" rx="12" fill="#fff" />
        <path d="M148 140h30v30z" fill={MID} />
        {bar(66, 164, 70, INK)}
        {[184, 198, 212, 226, 240].map((y, i) => bar(66, y, [92, 80, 96, 70, 88][i], MID, 6))}
        <rect x="66" y="262" width="52" height="26" rx="6" fill={SOFT} />
        {bar(74, 272, 36, BRAND, 6)}
      </g>
      {/* checks: AI, peer review, approval */}
      <circle cx="250" cy="118" r="40" fill="#fff" opacity="0.14" />
      <circle cx="250" cy="118" r="30" fill={BRAND} />
      <path d="M250 102l4 10 10 4-10 4-4 10-4-10-10-4 10-4z" fill="#fff" />
      <circle cx="330" cy="238" r="40" fill="#fff" opacity="0.14" />
      <circle cx="330" cy="238" r="30" fill={AMBER} />
      <circle cx="324" cy="232" r="5.5" fill="#fff" />
      <circle cx="338" cy="234" r="4.5" fill="#fff" opacity="0.8" />
      <path
        d="M313 252a11 11 0 0 1 22 0M333 250a9 9 0 0 1 14 0"
        stroke="#fff"
        strokeWidth="4"
        strokeLinecap="round"
        fill="none"
      />
      <circle cx="440" cy="140" r="40" fill="#fff" opacity="0.14" />
      <circle cx="440" cy="140" r="30" fill={GREEN} />
      <path
        d="M428 141l8 8 16-16"
        stroke="#fff"
        strokeWidth="4.5"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      {/* published card */}
      <rect x="360" y="250" width="140" height="96" rx="12" fill="#fff" />
      {bar(376, 268, 64, INK)}
      {bar(376, 284, 100, MID, 6)}
      {bar(376, 297, 84, MID, 6)}
      <rect x="376" y="314" width="42" height="18" rx="9" fill="#e7f6ec" />
      <circle cx="386" cy="323" r="4" fill={GREEN} />
      <rect x="424" y="314" width="58" height="18" rx="9" fill={SOFT} />
    </svg>
  );
}

function Frame({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <svg
      className={className}
      width="480"
      height="300"
      viewBox="0 0 480 300"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="0.5" y="0.5" width="479" height="299" rx="14" fill="#fff" stroke={LINE} />
      <path d="M1 30h478" stroke={LINE} />
      <circle cx="18" cy="15.5" r="4.5" fill="#f87171" />
      <circle cx="32" cy="15.5" r="4.5" fill="#fbbf24" />
      <circle cx="46" cy="15.5" r="4.5" fill="#34d399" />
      <rect x="150" y="9" width="180" height="13" rx="6.5" fill={ALT} />
      {children}
    </svg>
  );
}

/** Screen: the submissions dashboard with key figures and the manuscript list. */
export function DashboardScreen({ className }: { className?: string }) {
  const rows = [
    { status: BRAND, soft: SOFT, w: 150 },
    { status: AMBER, soft: '#fff4e0', w: 120 },
    { status: GREEN, soft: '#e7f6ec', w: 170 },
    { status: BRAND, soft: SOFT, w: 134 },
    { status: '#b91c1c', soft: '#fdecec', w: 110 },
  ];
  return (
    <Frame className={className}>
      <path d="M1 30h70v255a14 14 0 0 1-14 14H15A14 14 0 0 1 1 285z" fill={ALT} />
      {bar(14, 46, 44, BRAND)}
      {[64, 82, 100, 118].map((y) => bar(14, y, 40, '#cbd5e1', 6))}
      {[0, 1, 2].map((i) => (
        <g key={i}>
          <rect x={88 + i * 128} y="44" width="116" height="64" rx="10" fill="#fff" stroke={LINE} />
          {bar(100 + i * 128, 56, 50, MID, 6)}
          <rect x={100 + i * 128} y="70" width={[44, 36, 52][i]} height="14" rx="4" fill={INK} />
          <path
            d={`M${150 + i * 128} 96l10-8 10 4 10-12 12-6`}
            stroke={[BRAND, AMBER, GREEN][i]}
            strokeWidth="2.5"
            fill="none"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </g>
      ))}
      <rect x="88" y="122" width="372" height="164" rx="10" fill="#fff" stroke={LINE} />
      {bar(102, 136, 90, INK)}
      {rows.map((r, i) => (
        <g key={i}>
          <path d={`M88 ${156 + i * 26}h372`} stroke={LINE} />
          <circle cx="110" cy={169 + i * 26} r="7" fill={SOFT} />
          <rect x="124" y={166 + i * 26} width={r.w} height="6" rx="3" fill={MID} />
          <rect x="370" y={161 + i * 26} width="72" height="16" rx="8" fill={r.soft} />
          <rect x="382" y={166.5 + i * 26} width="48" height="5" rx="2.5" fill={r.status} />
        </g>
      ))}
    </Frame>
  );
}

/** Screen: assigning reviewers with deadlines. */
export function ReviewScreen({ className }: { className?: string }) {
  const reviewers = [
    { skin: '#c68a5a', on: true },
    { skin: '#f1c7a0', on: true },
    { skin: '#8d5a3b', on: false },
    { skin: '#e0ac84', on: false },
  ];
  return (
    <Frame className={className}>
      <rect x="18" y="46" width="176" height="236" rx="10" fill={ALT} />
      <rect x="34" y="62" width="144" height="204" rx="6" fill="#fff" stroke={LINE} />
      {bar(48, 78, 90, INK)}
      {[98, 112, 126, 140, 154, 168, 182, 196, 210, 224, 238].map((y, i) =>
        bar(48, y, [110, 96, 116, 88, 104, 112, 76, 108, 92, 114, 60][i], MID, 5),
      )}
      {bar(212, 50, 120, INK)}
      {reviewers.map((r, i) => (
        <g key={i}>
          <rect
            x="212"
            y={70 + i * 46}
            width="250"
            height="38"
            rx="10"
            fill="#fff"
            stroke={r.on ? BRAND : LINE}
          />
          <circle cx="232" cy={89 + i * 46} r="11" fill={r.skin} />
          <rect x="250" y={81 + i * 46} width="86" height="6" rx="3" fill={INK} opacity="0.8" />
          <rect x="250" y={93 + i * 46} width="60" height="5" rx="2.5" fill={MID} />
          <rect x="420" y={80 + i * 46} width="30" height="18" rx="9" fill={r.on ? BRAND : '#cbd5e1'} />
          <circle cx={r.on ? 441 : 429} cy={89 + i * 46} r="6.5" fill="#fff" />
        </g>
      ))}
      <rect x="212" y="256" width="120" height="28" rx="8" fill={SOFT} />
      <rect x="222" y="263" width="14" height="14" rx="3" fill="none" stroke={BRAND} strokeWidth="2" />
      {bar(244, 267, 72, BRAND, 6)}
      <rect x="342" y="256" width="120" height="28" rx="14" fill={BRAND} />
      {bar(370, 267, 64, '#fff', 6)}
    </Frame>
  );
}

/** Screen: the automatic checks: similarity, scope relevancy and references. */
export function ChecksScreen({ className }: { className?: string }) {
  return (
    <Frame className={className}>
      <rect x="18" y="46" width="140" height="236" rx="10" fill={ALT} />
      <circle cx="88" cy="118" r="44" fill="none" stroke="#e7f6ec" strokeWidth="12" />
      <circle
        cx="88"
        cy="118"
        r="44"
        fill="none"
        stroke={GREEN}
        strokeWidth="12"
        strokeDasharray="236 277"
        strokeLinecap="round"
        transform="rotate(-90 88 118)"
      />
      <path
        d="M74 118l10 10 18-18"
        stroke={GREEN}
        strokeWidth="5"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      {bar(40, 184, 96, INK)}
      {bar(48, 200, 80, MID, 6)}
      <rect x="34" y="226" width="108" height="40" rx="8" fill="#fff" stroke={LINE} />
      {bar(46, 236, 60, MID, 5)}
      <rect x="46" y="248" width="84" height="8" rx="4" fill={SOFT} />
      <rect x="46" y="248" width="70" height="8" rx="4" fill={BRAND} />
      {bar(176, 50, 110, INK)}
      {[0, 1, 2, 3, 4, 5].map((i) => {
        const ok = i !== 3;
        return (
          <g key={i}>
            <rect x="176" y={68 + i * 36} width="286" height="28" rx="8" fill="#fff" stroke={LINE} />
            <circle cx="194" cy={82 + i * 36} r="8" fill={ok ? '#e7f6ec' : '#fff4e0'} />
            <path
              d={ok ? `M190 ${82 + i * 36}l3 3 5-5` : `M194 ${78 + i * 36}v4.5M194 ${86 + i * 36}v.1`}
              stroke={ok ? GREEN : AMBER}
              strokeWidth="2.2"
              fill="none"
              strokeLinecap="round"
            />
            <rect
              x="210"
              y={79 + i * 36}
              width={[150, 120, 170, 136, 110, 160][i]}
              height="6"
              rx="3"
              fill={MID}
            />
            <rect x="410" y={76 + i * 36} width="40" height="12" rx="6" fill={ok ? SOFT : '#fff4e0'} />
          </g>
        );
      })}
    </Frame>
  );
}
