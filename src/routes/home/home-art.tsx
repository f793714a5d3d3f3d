/* Original illustrations of the home page (decorative; the text beside them says it all). */

const BRAND = '#1d4ed8';
const SOFT = '#e8eefc';
const MID = '#b7c6ef';
const INK = '#14213d';
const LINE = '#dfe4ee';
const ALT = '#f5f7fb';

function KanbanCard({ x, y, tone, done = false }: { x: number; y: number; tone: string; done?: boolean }) {
  return (
    <g>
      <rect x={x} y={y} width="79" height="44" rx="8" fill="#fff" stroke={LINE} />
      <rect x={x + 9} y={y + 10} width="44" height="6" rx="3" fill={INK} opacity="0.75" />
      <rect x={x + 9} y={y + 22} width="58" height="5" rx="2.5" fill={MID} />
      <circle cx={x + 14} cy={y + 35} r="4.5" fill={tone} />
      <rect x={x + 22} y={y + 32.5} width="26" height="5" rx="2.5" fill={LINE} />
      {done && (
        <g>
          <circle cx={x + 68} cy={y + 34} r="7" fill="#15803d" />
          <path
            d={`M${x + 64.5} ${y + 34}l2.5 2.5 4.5-4.5`}
            stroke="#fff"
            strokeWidth="2"
            fill="none"
            strokeLinecap="round"
          />
        </g>
      )}
    </g>
  );
}

/** Hero: an editorial dashboard with a manuscript pipeline, an AI assistant and a report. */
export function HeroArt({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      width="560"
      height="460"
      viewBox="0 0 560 460"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="300" cy="235" r="200" fill={SOFT} />
      <g fill={MID} opacity="0.7">
        {Array.from({ length: 5 }, (_, r) =>
          Array.from({ length: 6 }, (_, c) => (
            <circle key={`${r}-${c}`} cx={430 + c * 18} cy={120 + r * 18} r="2.2" />
          )),
        )}
      </g>
      <rect x="48" y="62" width="440" height="300" rx="16" fill={INK} opacity="0.08" />
      <rect x="40" y="50" width="440" height="300" rx="16" fill="#fff" stroke={LINE} />
      <path d="M40 86h440" stroke={LINE} />
      <circle cx="62" cy="68" r="5" fill="#f87171" />
      <circle cx="78" cy="68" r="5" fill="#fbbf24" />
      <circle cx="94" cy="68" r="5" fill="#34d399" />
      <rect x="160" y="62" width="200" height="12" rx="6" fill={ALT} />
      <path d="M40 86h92v264H56a16 16 0 0 1-16-16z" fill={ALT} />
      <rect x="56" y="104" width="60" height="9" rx="4.5" fill={BRAND} />
      {[126, 146, 166, 186, 206].map((y) => (
        <rect key={y} x="56" y={y} width={y === 166 ? 44 : 56} height="7" rx="3.5" fill="#cbd5e1" />
      ))}
      <rect x="150" y="102" width="128" height="11" rx="5.5" fill={INK} />
      <rect x="150" y="120" width="190" height="7" rx="3.5" fill={MID} />
      {[
        { x: 150, tone: BRAND, cards: 3 },
        { x: 258, tone: '#d97706', cards: 2 },
        { x: 366, tone: '#15803d', cards: 2 },
      ].map((col) => (
        <g key={col.x}>
          <rect x={col.x} y="140" width="99" height="196" rx="10" fill={ALT} />
          <rect x={col.x + 10} y="150" width="40" height="9" rx="4.5" fill={col.tone} opacity="0.9" />
          <rect x={col.x + 56} y="150" width="14" height="9" rx="4.5" fill={LINE} />
          {Array.from({ length: col.cards }, (_, i) => (
            <KanbanCard
              key={i}
              x={col.x + 10}
              y={168 + i * 54}
              tone={col.tone}
              done={col.tone === '#15803d'}
            />
          ))}
        </g>
      ))}
      {/* AI assistant */}
      <rect x="372" y="14" width="160" height="70" rx="14" fill={BRAND} />
      <path d="M398 32l3.2 8.8 8.8 3.2-8.8 3.2-3.2 8.8-3.2-8.8-8.8-3.2 8.8-3.2z" fill="#fff" />
      <path d="M414 56l1.4 3.6 3.6 1.4-3.6 1.4-1.4 3.6-1.4-3.6-3.6-1.4 3.6-1.4z" fill="#fbbf24" />
      <rect x="428" y="34" width="84" height="8" rx="4" fill="#fff" opacity="0.95" />
      <rect x="428" y="50" width="64" height="7" rx="3.5" fill="#fff" opacity="0.55" />
      <rect x="428" y="63" width="46" height="7" rx="3.5" fill="#fff" opacity="0.55" />
      {/* report card */}
      <rect x="14" y="318" width="178" height="124" rx="14" fill={INK} opacity="0.08" />
      <rect x="8" y="310" width="178" height="124" rx="14" fill="#fff" stroke={LINE} />
      <rect x="24" y="326" width="70" height="8" rx="4" fill={INK} opacity="0.8" />
      {[
        [30, 30],
        [56, 46],
        [82, 38],
        [108, 62],
        [134, 74],
      ].map(([x, h]) => (
        <rect key={x} x={x} y={416 - h} width="16" height={h} rx="4" fill={x === 134 ? BRAND : MID} />
      ))}
      <path
        d="M30 380l26-12 26 6 26-20 30-16"
        stroke="#d97706"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      {/* similarity check ring */}
      <circle cx="478" cy="384" r="54" fill={INK} opacity="0.08" />
      <circle cx="472" cy="378" r="54" fill="#fff" stroke={LINE} />
      <circle cx="472" cy="378" r="36" fill="none" stroke="#e7f6ec" strokeWidth="10" />
      <circle
        cx="472"
        cy="378"
        r="36"
        fill="none"
        stroke="#15803d"
        strokeWidth="10"
        strokeDasharray="190 226"
        strokeLinecap="round"
        transform="rotate(-90 472 378)"
      />
      <path
        d="M459 378l9 9 17-17"
        stroke="#15803d"
        strokeWidth="5"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** 'Why SMEs choose Manna': a small team, a checklist that is done, and growth. */
export function WhyArt({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      width="520"
      height="420"
      viewBox="0 0 520 420"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="20" y="30" width="480" height="360" rx="28" fill={SOFT} />
      <path
        d="M60 330c80-10 120-70 190-90s120-80 210-150"
        stroke={MID}
        strokeWidth="3"
        strokeDasharray="6 8"
        fill="none"
      />
      {/* growth bars */}
      {[
        [70, 70],
        [118, 110],
        [166, 150],
        [214, 200],
      ].map(([x, h], i) => (
        <rect key={x} x={x} y={350 - h} width="34" height={h} rx="8" fill={i === 3 ? BRAND : '#93b4ff'} />
      ))}
      <path d="M62 350h210" stroke={INK} strokeOpacity="0.25" strokeWidth="2" />
      {/* checklist card */}
      <rect x="278" y="74" width="196" height="230" rx="18" fill={INK} opacity="0.08" />
      <rect x="270" y="64" width="196" height="230" rx="18" fill="#fff" stroke={LINE} />
      <rect x="292" y="86" width="96" height="10" rx="5" fill={INK} />
      {[0, 1, 2, 3, 4].map((i) => (
        <g key={i}>
          <circle cx="304" cy={126 + i * 36} r="11" fill={i < 4 ? '#15803d' : '#fbbf24'} />
          <path
            d={`M299 ${126 + i * 36}l3.5 3.5 6.5-6.5`}
            stroke="#fff"
            strokeWidth="2.4"
            fill="none"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
          <rect x="324" y={121 + i * 36} width={[104, 86, 112, 78, 96][i]} height="9" rx="4.5" fill={MID} />
        </g>
      ))}
      {/* team */}
      {[
        { x: 116, skin: '#c68a5a', shirt: BRAND, hair: '#2b1d16' },
        { x: 176, skin: '#8d5a3b', shirt: '#d97706', hair: '#141414' },
        { x: 236, skin: '#f1c7a0', shirt: '#15803d', hair: '#6b3f1f' },
      ].map((p) => (
        <g key={p.x} transform={`translate(${p.x - 150} ${p.x === 176 ? -40 : -32})`}>
          <circle cx="150" cy="120" r="16" fill={p.skin} />
          <path d="M134 118a16 16 0 0 1 32 0c-6-6-14-8-20-6s-9 4-12 6z" fill={p.hair} />
          <path d="M124 170a26 26 0 0 1 52 0z" fill={p.shirt} />
        </g>
      ))}
      <circle cx="448" cy="322" r="30" fill={BRAND} />
      <path
        d="M436 330l10-10 6 6 12-14M456 312h8v8"
        stroke="#fff"
        strokeWidth="3.5"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
