import m from './marketing.module.css';

export type Mark = 'ring' | 'book' | 'leaf' | 'hex' | 'grid' | 'spark';

/** Small neutral glyphs for wordmark tiles (original shapes, no third-party marks). */
function MarkGlyph({ mark }: { mark: Mark }) {
  const common = {
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
    strokeLinecap: 'round' as const,
    strokeLinejoin: 'round' as const,
  };
  return (
    <svg
      className={m.tileMark}
      width="28"
      height="28"
      viewBox="0 0 28 28"
      aria-hidden="true"
      focusable="false"
    >
      {mark === 'ring' && (
        <>
          <circle cx="14" cy="14" r="10" {...common} />
          <circle cx="14" cy="14" r="4" fill="currentColor" />
        </>
      )}
      {mark === 'book' && (
        <path
          d="M4 7c3-1.5 6-1.5 10 1 4-2.5 7-2.5 10-1v14c-3-1.5-6-1.5-10 1-4-2.5-7-2.5-10-1zM14 8v14"
          {...common}
        />
      )}
      {mark === 'leaf' && <path d="M5 23C5 12 11 5 23 5c0 12-7 18-18 18zM5 23l9-9" {...common} />}
      {mark === 'hex' && (
        <path d="M14 3.5 23 8.8v10.4L14 24.5 5 19.2V8.8zM14 10v8M10 12l8 4M18 12l-8 4" {...common} />
      )}
      {mark === 'grid' && (
        <>
          <rect x="4" y="4" width="8" height="8" rx="2" {...common} />
          <rect x="16" y="4" width="8" height="8" rx="2" {...common} />
          <rect x="4" y="16" width="8" height="8" rx="2" {...common} />
          <rect x="16" y="16" width="8" height="8" rx="2" fill="currentColor" />
        </>
      )}
      {mark === 'spark' && <path d="M14 3l2.6 8.4L25 14l-8.4 2.6L14 25l-2.6-8.4L3 14l8.4-2.6z" {...common} />}
    </svg>
  );
}

/** A neutral wordmark tile naming a kind of service or publisher. */
export function WordmarkTile({ mark, label }: { mark: Mark; label: string }) {
  return (
    <div className={m.tile}>
      <MarkGlyph mark={mark} />
      <span>{label}</span>
    </div>
  );
}
