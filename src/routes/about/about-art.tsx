/* Original illustration of the About page (decorative). */
const BRAND = '#1d4ed8';
const SOFT = '#e8eefc';
const MID = '#b7c6ef';
const INK = '#14213d';

/** 'Our Story': a stack of journals with a sprout growing from it, and the spark of an idea. */
export function StoryArt({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      width="480"
      height="400"
      viewBox="0 0 480 400"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="240" cy="210" r="170" fill={SOFT} />
      <g fill={MID}>
        {[0, 1, 2, 3].map((r) =>
          [0, 1, 2, 3].map((c) => <circle key={`${r}${c}`} cx={60 + c * 16} cy={60 + r * 16} r="2.4" />),
        )}
      </g>
      {/* journals */}
      <rect x="120" y="300" width="240" height="36" rx="6" fill={BRAND} />
      <rect x="120" y="300" width="18" height="36" fill="#1a3fae" />
      <rect x="300" y="312" width="44" height="12" rx="3" fill="#fff" opacity="0.85" />
      <rect x="136" y="264" width="220" height="36" rx="6" fill="#d97706" />
      <rect x="136" y="264" width="18" height="36" fill="#b45309" />
      <rect x="290" y="276" width="48" height="12" rx="3" fill="#fff" opacity="0.85" />
      <rect x="128" y="228" width="226" height="36" rx="6" fill={INK} />
      <rect x="128" y="228" width="18" height="36" fill="#0b1428" />
      <rect x="292" y="240" width="46" height="12" rx="3" fill="#fff" opacity="0.8" />
      {/* sprout */}
      <path d="M240 228c0-40 2-70 0-110" stroke="#15803d" strokeWidth="6" strokeLinecap="round" fill="none" />
      <path d="M240 170c-40 0-62-22-66-56 36 0 60 18 66 56z" fill="#22c55e" />
      <path d="M241 140c6-38 32-58 70-58-2 36-28 58-70 58z" fill="#15803d" />
      <path d="M240 170c-20-12-36-30-52-50" stroke="#15803d" strokeWidth="2" fill="none" opacity="0.5" />
      {/* spark */}
      <circle cx="360" cy="110" r="34" fill="#fff" />
      <path d="M360 88l5 13.5 13.5 5-13.5 5-5 13.5-5-13.5-13.5-5 13.5-5z" fill="#fbbf24" />
      <path d="M392 70l6-6M404 102h8M328 70l-6-6" stroke="#fbbf24" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
