import { useId } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { SnapshotFrom } from 'xstate';
import { POPULAR_PLAN } from '../../contract/pricing-constants';
import { PageMeta } from '../components/page-meta';
import { useKeptPageAt, usePageData } from '../components/page-data';
import { RegisterLink } from '../components/register-link';
import { PERIODS, formatPlanPrice, type Period, type PlanCard } from '../machines/pricing.machine';
import { livePricingMachine as pagePricingMachine } from './pricing.live';
import s from './pricing.module.css';

const CheckIcon = () => (
  <svg
    className={s.check}
    width="18"
    height="18"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2.5}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </svg>
);

function PlanCardView({ plan, period }: { plan: PlanCard; period: Period }) {
  const { t } = useTranslation('pricing');
  const id = useId();
  const popular = plan.name === POPULAR_PLAN;
  const price = plan.prices[period];
  return (
    <li className={popular ? `${s.card} ${s.popular}` : s.card}>
      <article className={s.cardBody} aria-labelledby={id}>
        <div className={s.badgeRow}>{popular && <p className={s.badge}>{t('mostPopular')}</p>}</div>
        <h2 id={id} className={s.planName}>
          {plan.name}
        </h2>
        <p className={s.price}>
          {price === null ? (
            <>
              <span className={s.amount} aria-hidden="true">
                -
              </span>
              <span className="visually-hidden">{t('noPrice')}</span>
            </>
          ) : (
            <>
              <span className={s.amount}>{formatPlanPrice(price, plan.currency)}</span>{' '}
              <span className={s.per}>{t(`per.${period}`)}</span>
            </>
          )}
        </p>
        <p className={s.description}>{plan.description}</p>
        <p className={s.journals}>
          {plan.journals.unlimited ? t('journalsUnlimited') : t('journalsMax', { n: plan.journals.count })}
        </p>
        <ul className={s.features}>
          {plan.features.map((feature, i) => (
            // a plan may list the same feature twice; the position keeps the keys apart
            <li key={`${i}-${feature}`}>
              <CheckIcon />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
        <RegisterLink
          className={popular ? `${s.cta} ${s.ctaPrimary}` : s.cta}
          aria-label={t('ctaLabel', { plan: plan.name })}
        >
          {t('cta')}
        </RegisterLink>
      </article>
    </li>
  );
}

/** A placeholder of the same size as a card, shown while the plans load (and in the server HTML). */
function SkeletonCard() {
  return (
    <li className={`${s.card} ${s.skeleton}`}>
      <div className={s.cardBody}>
        <div className={s.badgeRow} />
        <span className={`${s.bar} ${s.barName}`} />
        <span className={`${s.bar} ${s.barPrice}`} />
        <span className={s.bar} />
        <span className={`${s.bar} ${s.barShort}`} />
        <span className={`${s.bar} ${s.barJournals}`} />
        <span className={s.skeletonFeatures}>
          {[0, 1, 2, 3, 4].map((i) => (
            <span key={i} className={`${s.bar} ${s.barFeature}`} />
          ))}
        </span>
        <span className={`${s.bar} ${s.barCta}`} />
      </div>
    </li>
  );
}

function formatSavedAt(savedAt: string, lang: string): string {
  const date = new Date(savedAt);
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  } catch {
    return date.toLocaleString();
  }
}

type View = {
  status: 'loading' | 'plans' | 'kept' | 'retry' | 'empty';
  period: Period;
  plans: PlanCard[];
  savedAt: string | null;
};

/** What the screen shows; the steps of the load that change nothing on screen cause no render. */
function viewOf(state: SnapshotFrom<typeof pagePricingMachine>): View {
  const { period, plans, savedAt } = state.context;
  const status = state.hasTag('loading')
    ? 'loading'
    : state.hasTag('kept')
      ? 'kept'
      : state.hasTag('plans')
        ? 'plans'
        : state.hasTag('retry')
          ? 'retry'
          : 'empty';
  return { status, period, plans, savedAt };
}

const sameView = (a: View, b: View) =>
  a.status === b.status && a.period === b.period && a.plans === b.plans && a.savedAt === b.savedAt;

export default function PricingPage() {
  const { t, i18n } = useTranslation('pricing');
  // the plans the server rendered the page with (the visitor's country): shown as they are
  const data = usePageData();
  const actor = useActorRef(pagePricingMachine, {
    input: { rows: data?.pricingRows, countryId: data?.pricingCountryId },
  });
  const { status, period, plans, savedAt: loadedSavedAt } = useSelector(actor, viewOf, sameView);
  // served offline from the device's copy of the page: say so, as for the plans' own copy
  const keptPageAt = useKeptPageAt(!!data?.pricingRows);
  const savedAt = loadedSavedAt ?? (status === 'plans' ? keptPageAt : null);
  const send: typeof actor.send = (event) => actor.send(event);
  const loading = status === 'loading';

  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <PageMeta title={t('metaTitle')} description={t('metaDescription')} path="/pricing" />

      <section className={s.hero} aria-labelledby="pricing-title">
        <div className="container">
          <h1 id="pricing-title" className={s.title}>
            {t('title')}
          </h1>
          <p className={s.lead}>{t('lead')}</p>
          <fieldset className={s.periods}>
            <legend className="visually-hidden">{t('period.legend')}</legend>
            {PERIODS.map((p) => (
              <label key={p} className={s.period}>
                <input
                  type="radio"
                  name="period"
                  value={p}
                  checked={period === p}
                  onChange={() => send({ type: 'period.select', period: p })}
                />
                <span>{t(`period.${p}`)}</span>
              </label>
            ))}
          </fieldset>
          {/* One line is always reserved here, so the note never moves the cards. */}
          <div className={s.statusRow}>
            <p className={s.status} role="status">
              {loading && <span className="visually-hidden">{t('loading')}</span>}
              {savedAt && t('savedCopy', { date: formatSavedAt(savedAt, i18n.language) })}
            </p>
            {status === 'kept' && (
              <button type="button" className={s.linkButton} onClick={() => send({ type: 'plans.retry' })}>
                {t('retry')}
              </button>
            )}
          </div>
        </div>
      </section>

      <section className={`container ${s.plans}`} aria-label={t('plansLabel')} aria-busy={loading}>
        {loading && (
          <ul className={s.grid} aria-hidden="true">
            <SkeletonCard />
            <SkeletonCard />
            <SkeletonCard />
          </ul>
        )}
        {(status === 'plans' || status === 'kept') && (
          <ul className={s.grid}>
            {plans.map((plan) => (
              <PlanCardView key={plan.name} plan={plan} period={period} />
            ))}
          </ul>
        )}
        {status === 'retry' && (
          <div className={s.notice}>
            <p>{t('failed')}</p>
            <button type="button" className={s.retry} onClick={() => send({ type: 'plans.retry' })}>
              {t('retry')}
            </button>
          </div>
        )}
        {status === 'empty' && <p className={s.notice}>{t('empty')}</p>}
      </section>
    </main>
  );
}
