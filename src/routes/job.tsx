import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { jobIdOfSlug, jobPath, type JobOpeningRow } from '../../contract/jobs';
import { htmlToText, textPreview } from '../../contract/rich-text';
import { usePageData } from '../components/page-data';
import { PageMeta } from '../components/page-meta';
import { WaitingToSend } from '../components/waiting-to-send';
import { formatSavedAt } from '../offline/format';
import { useApplyLauncher } from './careers/apply-launcher';
import { JobCard } from './careers/job-card';
import { jobPosting } from './careers/job-posting';
import { jobCardText } from './careers/job-text';
import { jobPageLive } from './job.live';
import list from './careers.module.css';
import s from './job.module.css';

/**
 * An opening's own page, /careers/{id}-{title}. The server renders it on request with the opening
 * (page data), so search engines see the whole text with its JobPosting JSON-LD, and answers 410
 * for a closed opening and 404 for none, with this page's "no longer available" state; hydration
 * starts from the same data. Reached by in-app navigation, it loads the opening by its number
 * (open ones only), or shows the copy kept on the device.
 */
export default function JobRoute() {
  const { slug = '' } = useParams();
  // another opening is another page: new machine, new state
  return <JobPage key={slug} slug={slug} />;
}

/** What search engines and link previews read: a description of about 155 characters. */
const descriptionOf = (job: JobOpeningRow) => textPreview(`${job.description} ${job.about_role}`, 155).text;

function JobPage({ slug }: { slug: string }) {
  // the offline namespace too: reached inside the app, the page may be the first to need it
  const { t, i18n } = useTranslation(['careers', 'offline']);
  const data = usePageData();
  const jobId = jobIdOfSlug(slug);
  // what the server rendered for this very address: the opening, or that there is none
  const fromServer =
    data && data.jobSlug === slug && data.jobOpening !== undefined
      ? data.jobOpening
        ? [data.jobOpening]
        : []
      : jobId === undefined
        ? [] // no number in the address: no opening to ask for
        : undefined;
  const [state, send] = useMachine(jobPageLive, {
    input: { pageSize: 1, query: jobId ?? 0, rows: fromServer },
  });
  const failed = state.matches({ failed: 'settled' });
  const { keptAt } = state.context;
  const job = state.context.rows[0] ?? (failed ? state.context.kept?.[0] : undefined);
  const jsonLd = useMemo(
    () =>
      job
        ? [jobPosting(job, { ...jobCardText(job), description: htmlToText(job.description) }, '%PUBLIC_URL%')]
        : [],
    [job],
  );
  const { apply, form: applyForm } = useApplyLauncher();

  let body: React.ReactNode;
  if (job) {
    body = (
      <>
        <PageMeta
          title={t('job.metaTitle', { title: job.job_title })}
          description={descriptionOf(job)}
          path={jobPath(job)}
          jsonLd={jsonLd}
        />
        {failed && keptAt && (
          <p className={list.kept} role="status">
            {t('offline:savedCopy', { date: formatSavedAt(keptAt, i18n.language) })}
          </p>
        )}
        <JobCard
          job={job}
          page
          onApply={apply}
        />
      </>
    );
  } else if (!state.matches('ready') && !failed) {
    body = (
      <p className={list.status} role="status">
        <span className={list.spinner} aria-hidden="true" />
        {t('job.loading')}
      </p>
    );
  } else if (failed) {
    body = (
      <div className={list.failed} role="alert">
        <p>{t('job.failed')}</p>
        <button type="button" className={list.retry} onClick={() => send({ type: 'list.retry' })}>
          {t('retry')}
        </button>
      </div>
    );
  } else {
    body = (
      <div className={s.missing}>
        <PageMeta title={t('job.gone')} description={t('job.goneText')} noindex />
        <h1>{t('job.gone')}</h1>
        <p>{t('job.goneText')}</p>
        <Link to="/careers" className={s.openings}>
          {t('job.openings')}
        </Link>
      </div>
    );
  }

  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <div className={`container ${s.wrap}`}>
        <nav className={s.crumbs} aria-label={t('title')}>
          <Link to="/careers">← {t('job.back')}</Link>
        </nav>
        {body}
        <WaitingToSend kind="application" />
      </div>
      {applyForm}
    </main>
  );
}
