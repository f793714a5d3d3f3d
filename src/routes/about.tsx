import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';
import { MarketingIcon, type IconName } from '../components/marketing/marketing-icons';
import { StoryArt } from './about/about-art';
import m from '../components/marketing/marketing.module.css';
import s from './about.module.css';

const PILLARS: { id: 'mission' | 'vision'; icon: IconName }[] = [
  { id: 'mission', icon: 'mission' },
  { id: 'vision', icon: 'vision' },
];
const VALUES: { id: string; icon: IconName }[] = [
  { id: 'affordable', icon: 'affordable' },
  { id: 'practical', icon: 'sparkles' },
  { id: 'trust', icon: 'roles' },
];

export default function AboutPage() {
  const { t } = useTranslation('about');
  return (
    <main id="main" tabIndex={-1}>
      <PageMeta title={t('metaTitle')} description={t('metaDescription')} path="/about" />

      <section className={s.hero} aria-labelledby="about-title">
        <div className={m.inner}>
          <p className={m.eyebrow}>{t('eyebrow')}</p>
          <h1 id="about-title" className={s.title}>
            {t('title')}
          </h1>
          <p className={s.lead}>{t('lead')}</p>
        </div>
      </section>

      <section className={m.section} aria-labelledby="story-title">
        <div className={`${m.inner} ${m.split}`}>
          <div>
            <p className={m.eyebrow}>{t('story.eyebrow')}</p>
            <h2 id="story-title" className={m.title}>
              {t('story.title')}
            </h2>
            <p className={s.prose}>{t('story.p1')}</p>
            <p className={s.prose}>{t('story.p2')}</p>
            <p className={s.prose}>{t('story.p3')}</p>
          </div>
          <StoryArt className={m.art} />
        </div>
      </section>

      <section className={`${m.section} ${m.alt}`} aria-label={t('pillarsLabel')}>
        <div className={m.inner}>
          <div className={m.grid2}>
            {PILLARS.map((p) => (
              <article key={p.id} className={m.card} aria-labelledby={`${p.id}-title`}>
                <span className={m.iconBadge}>
                  <MarketingIcon name={p.icon} />
                </span>
                <h2 id={`${p.id}-title`} className={s.pillarTitle}>
                  {t(`${p.id}.title`)}
                </h2>
                <p>{t(`${p.id}.text`)}</p>
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className={m.section} aria-labelledby="values-title">
        <div className={m.inner}>
          <div className={m.head}>
            <h2 id="values-title" className={m.title}>
              {t('values.title')}
            </h2>
          </div>
          <ul className={m.grid3}>
            {VALUES.map((v) => (
              <li key={v.id} className={s.value}>
                <span className={m.iconBadge}>
                  <MarketingIcon name={v.icon} />
                </span>
                <h3>{t(`values.items.${v.id}.title`)}</h3>
                <p>{t(`values.items.${v.id}.text`)}</p>
              </li>
            ))}
          </ul>
          <div className={s.closing}>
            <p>{t('closing.text')}</p>
            <div className={`${m.actions} ${s.closingActions}`}>
              <Link to="/contact" className={m.button}>
                {t('closing.contact')}
              </Link>
              <Link to="/careers" className={m.buttonSecondary}>
                {t('closing.careers')}
              </Link>
            </div>
          </div>
        </div>
      </section>
    </main>
  );
}
