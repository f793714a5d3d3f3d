import { useTranslation } from 'react-i18next';
import { PageMeta } from '../components/page-meta';
import { RegisterLink } from '../components/register-link';
import { MarketingIcon } from '../components/marketing/marketing-icons';
import { WordmarkTile } from '../components/marketing/wordmark-tile';
import {
  BENEFITS,
  CAPABILITIES,
  EDITORIAL_STEPS,
  FIRST_ROW,
  INTEGRATIONS,
  SCREENS,
} from '../content/product';
import { BannerArt, ChecksScreen, DashboardScreen, ReviewScreen } from './product/product-art';
import m from '../components/marketing/marketing.module.css';
import s from './manuscript-automation.module.css';

const SCREEN_ART = { dashboard: DashboardScreen, review: ReviewScreen, checks: ChecksScreen } as const;

export default function ManuscriptAutomationPage() {
  const { t } = useTranslation('product');
  return (
    <main id="main" tabIndex={-1}>
      <PageMeta title={t('metaTitle')} description={t('metaDescription')} path="/manuscript-automation" />

      <section className={s.banner} aria-labelledby="banner-title">
        <div className={`${m.inner} ${s.bannerInner}`}>
          <div>
            <h1 id="banner-title" className={s.bannerEyebrow}>
              {t('title')}
            </h1>
            <p className={s.bannerTitle}>{t('banner.title')}</p>
            <p className={s.bannerText}>{t('banner.text')}</p>
            <div className={m.actions}>
              <RegisterLink className={m.buttonOnDeep}>{t('banner.trial')}</RegisterLink>
              <RegisterLink className={s.demoButton}>{t('banner.demo')}</RegisterLink>
            </div>
          </div>
          <BannerArt className={`${m.art} ${s.bannerArt}`} />
        </div>
      </section>

      <section className={m.section} aria-labelledby="capabilities-title">
        <div className={m.inner}>
          <div className={m.head}>
            <p className={m.eyebrow}>{t('capabilities.eyebrow')}</p>
            <h2 id="capabilities-title" className={m.title}>
              {t('capabilities.title')}
            </h2>
            <p className={m.lead}>{t('capabilities.text')}</p>
          </div>
          <ul className={m.grid4} data-testid="capabilities">
            {CAPABILITIES.map((c) => (
              <li key={c.id}>
                <article className={m.card}>
                  <span className={m.iconBadge}>
                    <MarketingIcon name={c.icon} />
                  </span>
                  <h3>{t(`capabilities.items.${c.id}.title`)}</h3>
                  <p>{t(`capabilities.items.${c.id}.text`)}</p>
                </article>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className={`${m.section} ${m.alt}`} aria-labelledby="flow-title">
        <div className={m.inner}>
          <div className={m.head}>
            <p className={m.eyebrow}>{t('flow.eyebrow')}</p>
            <h2 id="flow-title" className={m.title}>
              {t('flow.title')}
            </h2>
            <p className={m.lead}>{t('flow.text')}</p>
          </div>
          <ol className={s.flow} data-testid="editorial-flow">
            {EDITORIAL_STEPS.map((step, i) => (
              <li key={step} className={`${s.step} ${i < FIRST_ROW ? s.rowOne : s.rowTwo}`}>
                <span className={s.stepNumber} aria-hidden="true">
                  {i + 1}
                </span>
                <span className={s.stepName}>{t(`flow.steps.${step}`)}</span>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className={m.section} aria-labelledby="screens-title">
        <div className={m.inner}>
          <div className={m.head}>
            <p className={m.eyebrow}>{t('screens.eyebrow')}</p>
            <h2 id="screens-title" className={m.title}>
              {t('screens.title')}
            </h2>
            <p className={m.lead}>{t('screens.text')}</p>
          </div>
          <ul className={s.screens}>
            {SCREENS.map((id) => {
              const Art = SCREEN_ART[id];
              return (
                <li key={id}>
                  <figure className={s.screen}>
                    <Art className={m.art} />
                    <figcaption>
                      <strong>{t(`screens.items.${id}.title`)}</strong>
                      <span>{t(`screens.items.${id}.text`)}</span>
                    </figcaption>
                  </figure>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <section className={`${m.section} ${m.deep}`} aria-labelledby="benefits-title">
        <div className={`${m.inner} ${s.benefits}`}>
          <div>
            <p className={m.eyebrow}>{t('benefits.eyebrow')}</p>
            <h2 id="benefits-title" className={m.title}>
              {t('benefits.title')}
            </h2>
            <p className={m.lead}>{t('benefits.text')}</p>
            <p className={s.stat}>
              <span className={s.statPrefix}>{t('benefits.statPrefix')}</span>
              <span className={s.statValue}>{t('benefits.stat')}</span>
              <span className={s.statLabel}>{t('benefits.statLabel')}</span>
            </p>
          </div>
          <ul className={s.benefitList}>
            {BENEFITS.map((b) => (
              <li key={b.id} className={s.benefit}>
                <span className={s.benefitIcon}>
                  <MarketingIcon name={b.icon} />
                </span>
                <span>
                  <strong>{t(`benefits.items.${b.id}.title`)}</strong>
                  <span>{t(`benefits.items.${b.id}.text`)}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className={m.section} aria-labelledby="integrations-title">
        <div className={m.inner}>
          <div className={m.head}>
            <p className={m.eyebrow}>{t('integrations.eyebrow')}</p>
            <h2 id="integrations-title" className={m.title}>
              {t('integrations.title')}
            </h2>
            <p className={m.lead}>{t('integrations.text')}</p>
          </div>
          <ul className={`${m.tiles} ${m.tilesFive}`} data-testid="integrations">
            {INTEGRATIONS.map((i) => (
              <li key={i.id}>
                <WordmarkTile mark={i.mark} label={t(`integrations.items.${i.id}`)} />
              </li>
            ))}
          </ul>
          <div className={s.closing}>
            <h2 className={s.closingTitle}>{t('closing.title')}</h2>
            <div className={`${m.actions} ${s.closingActions}`}>
              <RegisterLink className={m.button}>{t('banner.trial')}</RegisterLink>
              <RegisterLink className={m.buttonSecondary}>{t('banner.demo')}</RegisterLink>
            </div>
          </div>
        </div>
      </section>
    </main>
  );
}
