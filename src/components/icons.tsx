import type { SVGProps } from 'react';

export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/**
 * The frame of every line icon of the product (24 px grid, currentColor, decorative): the header's,
 * the marketing pages', the careers cards' and the back office's draw their paths inside it.
 */
export function LineIcon({ size = 20, children, ...rest }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

export const ChevronDown = (p: IconProps) => (
  <LineIcon {...p}>
    <path d="m6 9 6 6 6-6" />
  </LineIcon>
);
export const SearchIcon = (p: IconProps) => (
  <LineIcon {...p}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </LineIcon>
);
export const MenuIcon = (p: IconProps) => (
  <LineIcon {...p}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </LineIcon>
);
export const CloseIcon = (p: IconProps) => (
  <LineIcon {...p}>
    <path d="M18 6 6 18M6 6l12 12" />
  </LineIcon>
);
export const GlobeIcon = (p: IconProps) => (
  <LineIcon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3Z" />
  </LineIcon>
);

/* Neutral social glyphs drawn for this site (no third-party marks). */
export const SocialLinkedIn = (p: IconProps) => (
  <LineIcon {...p}>
    <rect x="3" y="3" width="18" height="18" rx="3" />
    <path d="M8 10v6M8 7.5v.01M12 16v-3.5a2 2 0 0 1 4 0V16M12 10v6" />
  </LineIcon>
);
export const SocialX = (p: IconProps) => (
  <LineIcon {...p}>
    <path d="M5 4l14 16M19 4 5 20" />
  </LineIcon>
);
export const SocialFacebook = (p: IconProps) => (
  <LineIcon {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M13.5 21v-7h2.5M13.5 14h-2.5M13.5 14v-3a2 2 0 0 1 2-2h1" />
  </LineIcon>
);
export const SocialYouTube = (p: IconProps) => (
  <LineIcon {...p}>
    <rect x="2.5" y="5.5" width="19" height="13" rx="4" />
    <path d="m10.5 9.5 4 2.5-4 2.5Z" />
  </LineIcon>
);
export const SocialInstagram = (p: IconProps) => (
  <LineIcon {...p}>
    <rect x="3.5" y="3.5" width="17" height="17" rx="5" />
    <circle cx="12" cy="12" r="3.8" />
    <path d="M17 7h.01" />
  </LineIcon>
);

/** Manna's mark: a rising arc of grains over an open book. Original artwork. */
export function Logo({ withWord = true }: { withWord?: boolean }) {
  return (
    <svg
      width={withWord ? 112 : 32}
      height="32"
      viewBox={withWord ? '0 0 112 32' : '0 0 32 32'}
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="8" fill="#1d4ed8" />
      <path
        d="M7 22.5c3-1.6 6-1.6 9 0 3-1.6 6-1.6 9 0"
        stroke="#fff"
        strokeWidth="2.2"
        fill="none"
        strokeLinecap="round"
      />
      <path d="M16 22.5V13" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="10" cy="12" r="2" fill="#fbbf24" />
      <circle cx="16" cy="8.5" r="2" fill="#fbbf24" />
      <circle cx="22" cy="12" r="2" fill="#fbbf24" />
      {withWord && (
        <text
          x="40"
          y="22.5"
          fontFamily="system-ui, sans-serif"
          fontSize="19"
          fontWeight="700"
          fill="#14213d"
        >
          Manna
        </text>
      )}
    </svg>
  );
}
