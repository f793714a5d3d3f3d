import { useMachine } from '@xstate/react';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  bounceRate,
  conversionRate,
  INSIGHT_FILTERS,
  type ConversionRow,
  type InsightFilter,
  type InsightRow,
  type InsightsAnswer,
  type InsightTable,
  type InsightTotals,
} from '../../../../contract/insights';
import { insightsCsvUrl } from '../../../api/insights';
import { isRange, questionOf } from '../../../machines/insights.machine';
import { useAdminSession } from '../shared/admin-context';
import { insightsLive, todayUtc } from './insights.live';
import { formatWhen } from '../shared/pager';
import s from '../shared/screen.module.css';
import v from './insights.module.css';

const DayChart = lazy(() => import('./insights-chart'));

type T = ReturnType<typeof useTranslation<'admin'>>['t'];

/**
 * Insights (insights.read): visits of the public pages and what they led to, over a range with
 * the previous period beside it. Every row of a table filters the whole screen; every table has
 * its CSV file; the chart has its table. The figures of the last question are kept on the device.
 */
export function InsightsScreen() {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.language;
  const { user } = useAdminSession();
  const machine = useMemo(() => insightsLive(user.user_id), [user.user_id]);
  const [state, send] = useMachine(machine, { input: { today: todayUtc() } });
  const { answer, preset, from, to, filters, savedAt } = state.context;
  const [draft, setDraft] = useState({ from, to });
  const [draftError, setDraftError] = useState(false);
  const question = questionOf(state.context);
  const loading = state.matches('loading') || state.matches('readingKept');
  const fmt = useMemo(() => new Intl.NumberFormat(lang), [lang]);
  const names = useNames(lang, t);

  const filterBy = (name: InsightFilter) => (value: string) => send({ type: 'filter.set', name, value });
  const active = INSIGHT_FILTERS.filter((name) => filters[name] !== undefined);

  return (
    <section className={s.panel} aria-labelledby="insights-title">
      <h2 id="insights-title">{t('insights.title')}</h2>
      <p className={s.help}>{t('insights.help')}</p>

      <div className={v.controls}>
        <div role="group" aria-label={t('insights.range')} className={v.presets}>
          {([7, 30, 90] as const).map((days) => (
            <button
              key={days}
              type="button"
              className={preset === days ? v.presetOn : v.preset}
              aria-pressed={preset === days}
              onClick={() => send({ type: 'range.preset', days })}
            >
              {t(`insights.last${days}`)}
            </button>
          ))}
        </div>
        <form
          className={v.custom}
          aria-label={t('insights.custom')}
          onSubmit={(e) => {
            e.preventDefault();
            if (!isRange(draft.from, draft.to)) return setDraftError(true);
            setDraftError(false);
            send({ type: 'range.custom', ...draft });
          }}
        >
          <div className={s.filterField}>
            <label htmlFor="insights-from">{t('insights.from')}</label>
            <input
              id="insights-from"
              type="date"
              value={draft.from}
              max={draft.to || undefined}
              aria-invalid={draftError || undefined}
              aria-describedby={draftError ? 'insights-range-error' : undefined}
              onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            />
          </div>
          <div className={s.filterField}>
            <label htmlFor="insights-to">{t('insights.to')}</label>
            <input
              id="insights-to"
              type="date"
              value={draft.to}
              min={draft.from || undefined}
              aria-invalid={draftError || undefined}
              aria-describedby={draftError ? 'insights-range-error' : undefined}
              onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            />
          </div>
          <button type="submit" className={s.secondary}>
            {t('insights.apply')}
          </button>
          {draftError && (
            <p id="insights-range-error" className={v.error} role="alert">
              {t('insights.rangeError')}
            </p>
          )}
        </form>
      </div>

      {active.length > 0 && (
        <div className={v.chips} role="group" aria-label={t('insights.filters')}>
          {active.map((name) => (
            <button
              key={name}
              type="button"
              className={v.chip}
              aria-label={t('insights.removeFilter', {
                name: t(`insights.filterNames.${name}`),
                value: names[name](filters[name]!),
              })}
              onClick={() => send({ type: 'filter.clear', name })}
            >
              <span>{t(`insights.filterNames.${name}`)}:</span> {names[name](filters[name]!)}{' '}
              <span aria-hidden="true">×</span>
            </button>
          ))}
          {active.length > 1 && (
            <button type="button" className={s.secondary} onClick={() => send({ type: 'filters.clear' })}>
              {t('insights.clearFilters')}
            </button>
          )}
        </div>
      )}

      <p role="status" className={s.help}>
        {loading
          ? t(answer ? 'insights.updating' : 'insights.loading')
          : savedAt
            ? t('insights.saved', { when: formatWhen(savedAt, lang) })
            : answer?.updated_at
              ? t('insights.updated', { when: formatWhen(answer.updated_at, lang) })
              : ''}
      </p>
      {state.matches('failed') && (
        <div role="alert">
          <p>{t('insights.failed')}</p>
          <button type="button" className={s.secondary} onClick={() => send({ type: 'insights.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}

      {answer && (
        <div className={loading ? v.stale : undefined} aria-busy={loading}>
          <Totals answer={answer} fmt={fmt} t={t} />
          <DaysFigure answer={answer} fmt={fmt} lang={lang} t={t} />

          <div className={v.grid}>
            <KeyTable
              t={t}
              {...topColumns(t, fmt)}
              table="pages"
              rows={answer.pages}
              name={names.page}
              filter={filters.page === undefined ? filterBy('page') : undefined}
              csv={insightsCsvUrl(question, 'pages')}
            />
            <FigureTable
              t={t}
              table="landings"
              csv={insightsCsvUrl(question, 'landings')}
              columns={[t('insights.columns.visits'), t('insights.totals.bounce')]}
              rows={answer.landings.map((r) => ({
                key: r.key,
                label: names.page(r.key),
                cells: [fmt.format(r.visits), `${fmt.format(bounceRate(r))} %`],
              }))}
              filter={filters.page === undefined ? filterBy('page') : undefined}
            />
            {(
              [
                ['referrers', 'referrer'],
                ['campaigns', 'campaign'],
                ['countries', 'country'],
                ['devices', 'device'],
                ['languages', 'language'],
              ] as const
            ).map(([table, name]) => (
              <KeyTable
                key={table}
                t={t}
                {...topColumns(t, fmt)}
                table={table}
                rows={answer[table]}
                name={names[name]}
                filter={filters[name] === undefined ? filterBy(name) : undefined}
                csv={insightsCsvUrl(question, table)}
              />
            ))}
          </div>

          <h3 className={v.section}>{t('insights.conversions')}</h3>
          <p className={s.help}>{t('insights.conversionsHelp')}</p>
          <p>
            {t('insights.conversionTotals', {
              applications: fmt.format(answer.conversions.applications),
              messages: fmt.format(answer.conversions.messages),
            })}
          </p>
          <div className={`${v.grid} ${v.wide}`}>
            {(
              [
                ['conversions_by_landing', 'by_landing', 'page'],
                ['conversions_by_referrer', 'by_referrer', 'referrer'],
                ['conversions_by_campaign', 'by_campaign', 'campaign'],
                ['posts', 'posts', 'page'],
              ] as const
            ).map(([table, key, name]) => (
              <KeyTable
                key={table}
                t={t}
                {...conversionColumns(t, fmt)}
                table={table}
                rows={answer.conversions[key]}
                name={names[name]}
                filter={filters[name] === undefined ? filterBy(name) : undefined}
                csv={insightsCsvUrl(question, table)}
              />
            ))}
            <FigureTable
              t={t}
              table="openings"
              csv={insightsCsvUrl(question, 'openings')}
              columns={[t('insights.columns.applications')]}
              rows={answer.conversions.openings.map((r) => ({
                key: String(r.job_id ?? `deleted-${r.job_title}`),
                label: r.job_title || t('insights.deletedOpening'),
                cells: [fmt.format(r.applications)],
              }))}
            />
          </div>
        </div>
      )}
    </section>
  );
}

/** How each filter's value reads: a country's name, a language's name, a device in words. */
function useNames(lang: string, t: T): Record<InsightFilter, (value: string) => string> {
  return useMemo(() => {
    const regions = new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' });
    const languages = new Intl.DisplayNames([lang], { type: 'language', fallback: 'code' });
    const or = (label: string) => (value: string) => value || label;
    return {
      page: or(t('insights.unknown')),
      referrer: or(t('insights.direct')),
      campaign: or(t('insights.unknown')),
      country: (code) => (code ? (regions.of(code) ?? code) : t('insights.unknown')),
      device: (d) => (d ? t(`insights.devices.${d}`, { defaultValue: d }) : t('insights.unknown')),
      language: (code) => (code ? (languages.of(code) ?? code) : t('insights.unknown')),
    };
  }, [lang, t]);
}

const change = (now: number, before: number, lang: string): string | null => {
  if (before === 0) return null;
  const ratio = (now - before) / before;
  return new Intl.NumberFormat(lang, {
    style: 'percent',
    signDisplay: 'exceptZero',
    maximumFractionDigits: 0,
  }).format(ratio);
};

function Totals({ answer, fmt, t }: { answer: InsightsAnswer; fmt: Intl.NumberFormat; t: T }) {
  const { i18n } = useTranslation();
  const perVisit = (x: InsightTotals) => (x.visits === 0 ? 0 : Math.round((10 * x.views) / x.visits) / 10);
  const cards: [string, number, number, (n: number) => string][] = [
    ['visitors', answer.totals.visitors, answer.previous_totals.visitors, (n) => fmt.format(n)],
    ['visits', answer.totals.visits, answer.previous_totals.visits, (n) => fmt.format(n)],
    ['views', answer.totals.views, answer.previous_totals.views, (n) => fmt.format(n)],
    ['perVisit', perVisit(answer.totals), perVisit(answer.previous_totals), (n) => fmt.format(n)],
    ['bounce', bounceRate(answer.totals), bounceRate(answer.previous_totals), (n) => `${fmt.format(n)} %`],
  ];
  return (
    <dl className={v.totals}>
      {cards.map(([key, now, before, show]) => (
        <div key={key} className={v.total}>
          <dt>{t(`insights.totals.${key}`)}</dt>
          <dd>
            <span className={v.figure}>{show(now)}</span>
            <span className={v.previous}>
              {t('insights.previous', { value: show(before) })}
              {change(now, before, i18n.language) && ` (${change(now, before, i18n.language)})`}
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The days as a chart (uPlot, loaded with it) or, on request, as a table. */
function DaysFigure({
  answer,
  fmt,
  lang,
  t,
}: {
  answer: InsightsAnswer;
  fmt: Intl.NumberFormat;
  lang: string;
  t: T;
}) {
  const [asTable, setAsTable] = useState(false);
  const day = useMemo(
    () => new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    [lang],
  );
  return (
    <figure className={v.chartBox} aria-labelledby="insights-chart-title">
      <div className={v.tableHead}>
        <figcaption id="insights-chart-title">{t('insights.chartTitle')}</figcaption>
        <button
          type="button"
          className={s.secondary}
          aria-pressed={asTable}
          onClick={() => setAsTable(!asTable)}
        >
          {t(asTable ? 'insights.showChart' : 'insights.showTable')}
        </button>
      </div>
      {asTable ? (
        <div className={s.tableWrap} tabIndex={0} role="region" aria-label={t('insights.chartTitle')}>
          <table className={s.table}>
            <thead>
              <tr>
                <th scope="col">{t('insights.day')}</th>
                <th scope="col">{t('insights.columns.visitors')}</th>
                <th scope="col">{t('insights.columns.views')}</th>
              </tr>
            </thead>
            <tbody>
              {answer.days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{day.format(new Date(`${d.day}T00:00:00Z`))}</th>
                  <td>{fmt.format(d.visitors)}</td>
                  <td>{fmt.format(d.views)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Suspense fallback={<div className={v.chart} />}>
          <DayChart
            days={answer.days}
            labels={{ visitors: t('insights.columns.visitors'), views: t('insights.columns.views') }}
            lang={lang}
          />
        </Suspense>
      )}
    </figure>
  );
}

interface FigureRow {
  key: string;
  label: string;
  cells: ReactNode[];
}

/** A table of figures with its title, its CSV file, and rows that filter the screen. */
function FigureTable({
  t,
  table,
  columns,
  rows,
  filter,
  csv,
}: {
  t: T;
  table: InsightTable;
  columns: string[];
  rows: FigureRow[];
  filter?: (value: string) => void;
  csv?: string;
}) {
  const title = t(`insights.tables.${table}`);
  const id = `insights-${table}`;
  return (
    <div className={v.card}>
      <div className={v.tableHead}>
        <h3 id={id}>{title}</h3>
        {csv && rows.length > 0 && (
          <a className={v.csv} href={csv} download aria-label={t('insights.csvLabel', { table: title })}>
            {t('insights.csv')}
          </a>
        )}
      </div>
      {rows.length === 0 ? (
        <p className={s.help}>{t('insights.empty')}</p>
      ) : (
        <div className={v.scroll} tabIndex={0} role="region" aria-labelledby={id}>
          {/* more than two figures: each row is a card on a phone */}
          <table className={columns.length > 2 ? `${v.table} ${s.cards}` : v.table}>
            <thead>
              <tr>
                <th scope="col">
                  <span className={v.hidden}>{title}</span>
                </th>
                {columns.map((c) => (
                  <th key={c} scope="col" className={v.num}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <th scope="row" className={v.key}>
                    {filter && r.key !== '' ? (
                      <button
                        type="button"
                        className={v.keyButton}
                        title={t('insights.filterBy', { value: r.label })}
                        onClick={() => filter(r.key)}
                      >
                        {r.label}
                      </button>
                    ) : (
                      r.label
                    )}
                  </th>
                  {r.cells.map((c, i) => (
                    <td key={i} className={v.num} data-label={columns[i]}>
                      {c}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** A table of keyed rows (a page, a referrer ...) named by `name`, with its figures' `cells`. */
function KeyTable<R extends { key: string }>({
  t,
  table,
  rows,
  name,
  filter,
  csv,
  columns,
  cells,
}: {
  t: T;
  table: InsightTable;
  rows: R[];
  name: (value: string) => string;
  filter?: (value: string) => void;
  csv: string;
  columns: string[];
  cells: (row: R) => ReactNode[];
}) {
  return (
    <FigureTable
      t={t}
      table={table}
      csv={csv}
      filter={filter}
      columns={columns}
      rows={rows.map((r) => ({ key: r.key, label: name(r.key), cells: cells(r) }))}
    />
  );
}

/** Visitors and views of each key. */
const topColumns = (t: T, fmt: Intl.NumberFormat) => ({
  columns: [t('insights.columns.visitors'), t('insights.columns.views')],
  cells: (r: InsightRow) => [fmt.format(r.visitors), fmt.format(r.views)],
});

/** Visits of each key, the applications and messages they led to, and the rate. */
const conversionColumns = (t: T, fmt: Intl.NumberFormat) => ({
  columns: [
    t('insights.columns.visits'),
    t('insights.columns.applications'),
    t('insights.columns.messages'),
    t('insights.columns.rate'),
  ],
  cells: (r: ConversionRow) => [
    fmt.format(r.visits),
    fmt.format(r.applications),
    fmt.format(r.messages),
    r.visits ? `${fmt.format(conversionRate(r.applications + r.messages, r.visits))} %` : '—',
  ],
});
