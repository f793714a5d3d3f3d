import { LineIcon, type IconProps } from '../icons';

/** Line icons drawn for the marketing pages (24 x 24, currentColor). Decorative: aria-hidden. */
const Icon = ({ size = 24, ...rest }: IconProps) => <LineIcon size={size} strokeWidth={1.8} {...rest} />;

const paths = {
  submission: (
    <>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M12 17v-6M9.5 13.5 12 11l2.5 2.5" />
    </>
  ),
  review: (
    <>
      <circle cx="9" cy="8" r="3" />
      <path d="M3.5 19a5.5 5.5 0 0 1 11 0M15 11.5l2 2 4-4" />
    </>
  ),
  plagiarism: (
    <>
      <path d="M13 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h4" />
      <path d="M9 8h6M9 12h3" />
      <circle cx="16.5" cy="15.5" r="3.5" />
      <path d="m19 18 2.5 2.5" />
    </>
  ),
  relevancy: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <circle cx="12" cy="12" r="4.5" />
      <path d="M12 12l6-6M16 6h2v2" />
    </>
  ),
  workflow: (
    <>
      <rect x="3" y="3.5" width="6" height="5" rx="1.2" />
      <rect x="15" y="3.5" width="6" height="5" rx="1.2" />
      <rect x="9" y="15.5" width="6" height="5" rx="1.2" />
      <path d="M9 6h6M18 8.5v3.5H12v3.5" />
    </>
  ),
  references: (
    <>
      <path d="M4 6h10M4 11h10M4 16h6" />
      <path d="m14 17 2.5 2.5L21 15" />
    </>
  ),
  doi: (
    <>
      <path d="M3.5 12.5 11 5h7.5v7.5L11 20z" />
      <circle cx="15" cy="8.5" r="1.4" />
      <path d="m8 13 3 3" />
    </>
  ),
  jats: (
    <>
      <path d="m8 7-5 5 5 5M16 7l5 5-5 5M13.5 4.5l-3 15" />
    </>
  ),
  distribution: (
    <>
      <circle cx="6" cy="12" r="2.5" />
      <circle cx="18" cy="5.5" r="2.5" />
      <circle cx="18" cy="18.5" r="2.5" />
      <path d="m8.2 10.8 7.6-4.1M8.2 13.2l7.6 4.1" />
    </>
  ),
  reports: (
    <>
      <path d="M4 20V4M4 20h16" />
      <path d="M8 16v-4M12 16V8M16 16v-6M20 16V6" />
    </>
  ),
  documents: (
    <>
      <path d="M3.5 7.5V18a2 2 0 0 0 2 2h13a2 2 0 0 0 2-2V9.5a2 2 0 0 0-2-2h-6.5L10 5H5.5a2 2 0 0 0-2 2z" />
      <path d="M8 13.5h8M8 16.5h5" />
    </>
  ),
  roles: (
    <>
      <path d="M12 3 4.5 6v5.5c0 4.5 3.2 8 7.5 9.5 4.3-1.5 7.5-5 7.5-9.5V6z" />
      <circle cx="12" cy="10" r="2.3" />
      <path d="M8.5 16a3.8 3.8 0 0 1 7 0" />
    </>
  ),
  fast: <path d="M13 2.5 4.5 13.5H11l-1 8 8.5-11H12z" />,
  easy: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M8.5 14a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
    </>
  ),
  noIt: (
    <>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4M9 10l2 2 4-4" />
    </>
  ),
  scales: (
    <>
      <path d="M3 17 9 11l4 4 8-8" />
      <path d="M15 7h6v6" />
    </>
  ),
  affordable: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M14.8 9.2A3 3 0 0 0 12 8c-1.7 0-3 .9-3 2s1.3 1.7 3 2 3 .9 3 2-1.3 2-3 2a3.2 3.2 0 0 1-2.8-1.2M12 6v2M12 16v2" />
    </>
  ),
  clock: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 7.5V12l3 2" />
    </>
  ),
  layers: (
    <>
      <path d="m12 3 9 5-9 5-9-5z" />
      <path d="m3 13 9 5 9-5" />
    </>
  ),
  compliance: (
    <>
      <circle cx="12" cy="9.5" r="6" />
      <path d="m9.5 9.5 1.8 1.8 3.2-3.3M8.5 14.5 7 21l5-2.5 5 2.5-1.5-6.5" />
    </>
  ),
  chatbot: (
    <>
      <path d="M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.5 4v-4A2.5 2.5 0 0 1 4 13.5z" />
      <path d="M9 9.5h.01M15 9.5h.01M9.5 12.5a3.5 3.5 0 0 0 5 0" />
    </>
  ),
  sparkles: (
    <>
      <path d="M10 3.5 11.6 8 16 9.5l-4.4 1.6L10 15.5l-1.6-4.4L4 9.5 8.4 8z" />
      <path d="M17.5 14l.8 2.2 2.2.8-2.2.8-.8 2.2-.8-2.2-2.2-.8 2.2-.8z" />
    </>
  ),
  story: (
    <>
      <path d="M3 5.5C5.5 4 9 4 12 6c3-2 6.5-2 9-.5V19c-2.5-1.5-6-1.5-9 .5-3-2-6.5-2-9-.5z" />
      <path d="M12 6v13.5" />
    </>
  ),
  mission: (
    <>
      <circle cx="12" cy="12" r="8.5" />
      <path d="m15.5 8.5-2 5-5 2 2-5z" />
    </>
  ),
  vision: (
    <>
      <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
  pin: (
    <>
      <path d="M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11z" />
      <circle cx="12" cy="10" r="2.3" />
    </>
  ),
  phone: (
    <path d="M5 3.5h3.2l1.6 4.2-2 1.3a11 11 0 0 0 5.2 5.2l1.3-2 4.2 1.6V17a2.5 2.5 0 0 1-2.7 2.5A15.5 15.5 0 0 1 2.5 6.2 2.5 2.5 0 0 1 5 3.5z" />
  ),
  mail: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3.5 6.5 8.5 6.5 8.5-6.5" />
    </>
  ),
  quote: (
    <path d="M9.5 6C6.5 7 4.5 9.6 4.5 13v4.5h5v-5h-3c0-2.3 1.2-4 3.4-4.8zM19.5 6c-3 1-5 3.6-5 7v4.5h5v-5h-3c0-2.3 1.2-4 3.4-4.8z" />
  ),
  arrow: <path d="M5 12h14M13 6l6 6-6 6" />,
  check: <path d="m5 12.5 4.5 4.5L19 7.5" />,
  send: <path d="m21 3-9.5 9.5M21 3l-6.5 18-3-8.5-8.5-3z" />,
} as const;

export type IconName = keyof typeof paths;

export function MarketingIcon({ name, ...rest }: IconProps & { name: IconName }) {
  return <Icon {...rest}>{paths[name]}</Icon>;
}
