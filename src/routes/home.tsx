import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';
import { RegisterLink } from '../components/register-link';
import { MarketingIcon } from '../components/marketing/marketing-icons';
import { WordmarkTile } from '../components/marketing/wordmark-tile';
import { CLIENTS, FEATURES, REASONS, TESTIMONIALS, type Testimonial } from '../content/home';
import { OFFICES } from '../content/offices';
import { HeroArt, WhyArt } from './home/home-art';
import m from '../components/marketing/marketing.module.css';
import s from './home.module.css';

/** Organization structured data for search engines (absolute addresses use the public URL). */
function organizationJsonLd(description: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: 'Manna',
    url: '%PUBLIC_URL%/',
    logo: '%PUBLIC_URL%/favicon.svg',
    description,
    email: OFFICES[0].email,
    address: OFFICES.map((o) => ({
      '@type': 'PostalAddress',
      streetAddress: o.address,
      addressLocality: o.city,
      addressCountry: o.country,
    })),
    contactPoint: OFFICES.map((o) => ({
      '@type': 'ContactPoint',
      contactType: 'customer support',
      telephone: o.phone,
      email: o.email,
      areaServed: ['EU', 'GB', 'IN'],
    })),
  };
}

function TestimonialCard({ item }: { item: Testimonial }) {
  return (
    <figure className={s.testimonial}>
      <MarketingIcon name="quote" size={28} className={s.quoteMark} />
      <blockquote className={s.quote}>
        <p>{item.quote}</p>
      </blockquote>
      <figcaption className={s.person}>
        <img src={item.image} alt="" width="48" height="48" loading="lazy" decoding="async" />
        <span>
          <span className={s.personName}>{item.name}</span>
          <span className={s.personTitle}>{item.title}</span>
        </span>
      </figcaption>
    </figure>
  );
}

export default function HomePage() {
  const { t } = useTranslation('home');
  const testimonials: Testimonial[] = TESTIMONIALS.map((p) => ({
    ...p,
    title: t(`testimonials.items.${p.id}.title`),
    quote: t(`testimonials.items.${p.id}.quote`),
  }));
  return (
    <main id="main" tabIndex={-1}>
      <PageMeta
        title={t('metaTitle')}
        description={t('metaDescription')}
        path="/"
        jsonLd={[organizationJsonLd(t('metaDescription'))]}
      />

      <section className={s.hero} aria-labelledby="hero-title">
        <div className={`${m.inner} ${s.heroInner}`}>
          <div className={s.heroText}>
            <p className={s.badge}>
              <MarketingIcon name="sparkles" size={18} />
              {t('hero.badge')}
            </p>
            <h1 id="hero-title" className={s.heroTitle}>
              {t('title')}
            </h1>
            <p className={s.heroLead}>{t('hero.text')}</p>
            <div className={m.actions}>
              <RegisterLink className={m.button}>
                {t('hero.cta')}
                <MarketingIcon name="arrow" size={18} />
              </RegisterLink>
              <Link to="/manuscript-automation" className={m.buttonSecondary}>
                {t('hero.secondary')}
              </Link>
            </div>
            <ul className={s.heroPoints}>
              {(['noCard', 'setup', 'support'] as const).map((k) => (
                <li key={k}>
                  <MarketingIcon name="check" size={18} />
                  {t(`hero.points.${k}`)}
                </li>
              ))}
            </ul>
          </div>
          <HeroArt className={`${m.art} ${s.heroArt}`} />
        </div>
      </section>

      <section className={m.section} aria-labelledby="why-title">
        <div className={`${m.inner} ${m.split}`}>
          <WhyArt className={m.art} />
          <div>
            <p className={m.eyebrow}>{t('why.eyebrow')}</p>
            <h2 id="why-title" className={m.title}>
              {t('why.title')}
            </h2>
            <p className={m.subline}>{t('why.subline')}</p>
            <p className={m.lead}>{t('why.text')}</p>
            <ul className={s.reasons}>
              {REASONS.map((r) => (
                <li key={r.id} className={s.reason}>
                  <span className={m.iconBadge}>
                    <MarketingIcon name={r.icon} />
                  </span>
                  <span>
                    <strong className={s.reasonTitle}>{t(`why.reasons.${r.id}.title`)}</strong>
                    <span className={s.reasonText}>{t(`why.reasons.${r.id}.text`)}</span>
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section className={`${m.section} ${m.alt}`} aria-labelledby="features-title">
        <div className={m.inner}>
          <div className={m.head}>
            <p className={m.eyebrow}>{t('features.eyebrow')}</p>
            <h2 id="features-title" className={m.title}>
              {t('features.title')}
            </h2>
            <p className={m.lead}>{t('features.text')}</p>
          </div>
          <ul className={m.grid4} data-testid="feature-cards">
            {FEATURES.map((f) => (
              <li key={f.id}>
                <article className={`${m.card} ${s.feature}`}>
                  <span className={m.iconBadge}>
                    <MarketingIcon name={f.icon} />
                  </span>
                  <h3>{t(`features.items.${f.id}.title`)}</h3>
                  <p>{t(`features.items.${f.id}.text`)}</p>
                </article>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className={m.sectionTight} aria-labelledby="clients-title">
        <div className={m.inner}>
          <h2 id="clients-title" className={s.clientsTitle}>
            {t('clients.title')}
          </h2>
          <ul className={s.clients} data-testid="client-logos">
            {CLIENTS.map((c) => (
              <li key={c.id}>
                <WordmarkTile mark={c.mark} label={t(`clients.items.${c.id}`)} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className={`${m.section} ${m.alt}`} aria-labelledby="testimonials-title">
        <div className={m.inner}>
          <div className={m.head}>
            <p className={m.eyebrow}>{t('testimonials.eyebrow')}</p>
            <h2 id="testimonials-title" className={m.title}>
              {t('testimonials.title')}
            </h2>
          </div>
          <ul className={m.grid2} data-testid="testimonials">
            {testimonials.map((item) => (
              <li key={item.id}>
                <TestimonialCard item={item} />
              </li>
            ))}
          </ul>
        </div>
      </section>
    </main>
  );
}
