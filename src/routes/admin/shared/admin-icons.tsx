import { LineIcon } from '../../../components/icons';
import type { AdminLink } from './admin-links';

/** Inline SVG icons of the back office (original line icons, 24 px grid). */
const Svg = LineIcon;

export const NavIcon = ({ name }: { name: AdminLink['icon'] }) => {
  switch (name) {
    case 'openings':
      return (
        <Svg>
          <rect x="3" y="7" width="18" height="13" rx="2" />
          <path d="M8 7V5a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2M3 13h18" />
        </Svg>
      );
    case 'blog':
      return (
        <Svg>
          <path d="M4 20h4L19 9l-4-4L4 16z" />
          <path d="m13.5 6.5 4 4" />
        </Svg>
      );
    case 'applications':
      return (
        <Svg>
          <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
          <path d="M14 3v5h5M9 13h6M9 17h6" />
        </Svg>
      );
    case 'messages':
      return (
        <Svg>
          <path d="M4 5h16v11H8l-4 4z" />
        </Svg>
      );
    case 'users':
      return (
        <Svg>
          <circle cx="9" cy="8" r="3.5" />
          <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14.5a6.5 6.5 0 0 1 3.5 5.5" />
        </Svg>
      );
    case 'mail':
      return (
        <Svg>
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <path d="m3.5 6.5 8.5 7 8.5-7" />
        </Svg>
      );
    case 'webhooks':
      return (
        <Svg>
          <circle cx="6" cy="17" r="2.5" />
          <circle cx="18" cy="17" r="2.5" />
          <circle cx="12" cy="6" r="2.5" />
          <path d="m10.8 8.2-3.6 6.6M8.5 17h7M13.2 8.2l3.6 6.6" />
        </Svg>
      );
    case 'activity':
      return (
        <Svg>
          <path d="M3 12h4l3-8 4 16 3-8h4" />
        </Svg>
      );
    case 'insights':
      return (
        <Svg>
          <path d="M4 20V4M4 20h16" />
          <path d="m7 15 4-4 3 3 5-6" />
        </Svg>
      );
  }
};

export const CollapseIcon = ({ collapsed }: { collapsed: boolean }) => (
  <Svg>{collapsed ? <path d="m9 6 6 6-6 6" /> : <path d="m15 6-6 6 6 6" />}</Svg>
);
export const EditIcon = () => (
  <Svg>
    <path d="M4 20h4L19 9l-4-4L4 16z" />
  </Svg>
);
/** An address that opens elsewhere (the public page of a record). */
export const ExternalIcon = () => (
  <Svg>
    <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
  </Svg>
);
export const TrashIcon = () => (
  <Svg>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
  </Svg>
);
export const PlusIcon = () => (
  <Svg>
    <path d="M12 5v14M5 12h14" />
  </Svg>
);
export const KeyIcon = () => (
  <Svg>
    <circle cx="8" cy="15" r="4" />
    <path d="m11 12 9-9M17 6l3 3" />
  </Svg>
);
export const LogoutIcon = () => (
  <Svg>
    <path d="M15 4h4a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-4M10 17l5-5-5-5M15 12H3" />
  </Svg>
);
