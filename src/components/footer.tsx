import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Logo, SocialFacebook, SocialInstagram, SocialLinkedIn, SocialX, SocialYouTube } from './icons';
import s from './footer.module.css';

const SOCIAL = [
  { key: 'linkedin', href: 'https://www.linkedin.com/company/manna-ai', Icon: SocialLinkedIn },
  { key: 'x', href: 'https://x.com/manna_ai', Icon: SocialX },
  { key: 'facebook', href: 'https://www.facebook.com/manna.ai', Icon: SocialFacebook },
  { key: 'youtube', href: 'https://www.youtube.com/@manna-ai', Icon: SocialYouTube },
  { key: 'instagram', href: 'https://www.instagram.com/manna.ai', Icon: SocialInstagram },
] as const;

export function Footer() {
  const { t } = useTranslation();
  const columns = [
    {
      title: t('footer.product'),
      links: [
        { to: '/manuscript-automation', label: t('nav.manuscript') },
        { to: '/blog', label: t('nav.blog') },
      ],
    },
    {
      title: t('footer.company'),
      links: [
        { to: '/about', label: t('nav.about') },
        { to: '/careers', label: t('nav.careers') },
        { to: '/contact', label: t('nav.contact') },
      ],
    },
    {
      title: t('footer.legal'),
      links: [
        { to: '/privacy-policy', label: t('footer.privacy') },
        { to: '/terms-of-service', label: t('footer.terms') },
        { to: '/cookie-policy', label: t('footer.cookies') },
        { to: '/cancellation-refund-policy', label: t('footer.refund') },
        { to: '/shipping-policy', label: t('footer.shipping') },
      ],
    },
  ];
  return (
    <footer className={s.footer}>
      <div className={s.inner}>
        <div className={s.brand}>
          <Link to="/" aria-label={t('nav.home')} className={s.logo}>
            <Logo withWord={false} />
            <span className={s.word}>{t('brand')}</span>
          </Link>
          <p className={s.tagline}>{t('footer.tagline')}</p>
          <ul className={s.social} aria-label={t('footer.social')}>
            {SOCIAL.map(({ key, href, Icon }) => (
              <li key={key}>
                <a href={href} rel="noopener noreferrer" target="_blank" aria-label={t(`footer.${key}`)}>
                  <Icon size={20} />
                </a>
              </li>
            ))}
          </ul>
        </div>
        {columns.map((c) => (
          <nav key={c.title} aria-label={c.title} className={s.column}>
            <h2 className={s.columnTitle}>{c.title}</h2>
            <ul>
              {c.links.map((l) => (
                <li key={l.to}>
                  <Link to={l.to}>{l.label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className={s.copyright}>{t('footer.copyright')}</p>
    </footer>
  );
}
