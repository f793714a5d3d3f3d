import { useMachine } from '@xstate/react';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useFollowAddress } from './follow-address';
import { cleanPage, pageQuery } from '../../contract/paging';
import { PageMeta } from '../components/page-meta';
import { useKeptPageAt, usePageData } from '../components/page-data';
import { PagePager } from '../components/pagination';
import { WaitingToSend } from '../components/waiting-to-send';
import { formatSavedAt } from '../offline/format';
import { useApplyLauncher } from './careers/apply-launcher';
import { careersInput, careersPageLive } from './careers.live';
import { JobCard } from './careers/job-card';
import s from './careers.module.css';

export default function CareersPage() {
  // the offline namespace too: reached inside the app, the page may be the first to need it
  const { t, i18n } = useTranslation(['careers', 'offline']);
  const [params, setParams] = useSearchParams();
  const [careersPageMachine] = useState(() =>
    careersPageLive((page) => setParams(new URLSearchParams(pageQuery(page)))),
  );
  // the page of openings the server rendered for this very address: shown as is, nothing to load
  const data = usePageData();
  const [firstPage] = useState(() => cleanPage(params.get('page')));
  const fromServer = data?.jobRows && data.jobPage === firstPage ? data.jobRows : undefined;
  const [current, sendList, listActor] = useMachine(careersPageMachine, {
    input: { ...careersInput(firstPage), rows: fromServer },
  });
  // served offline from the device's copy of the page: say so, as for the list's own copy
  const keptPageAt = useKeptPageAt(!!fromServer);
  // Back and forward change the address: the list follows (the page shown already: ignored).
  useFollowAddress((address) =>
    listActor.send({ type: 'list.follow', query: null, page: cleanPage(address.get('page')) }),
  );
  // The cards are rendered in a deferred (interruptible) render: the placeholders stay until the
  // cards are ready, and building them does not block input in one long task.
  const list = useDeferredValue(current);
  const failed = list.matches({ failed: 'settled' });
  const { kept, keptAt } = list.context;
  const openings = list.matches('ready') ? list.context.rows : failed && kept ? kept : null;

  const { apply, form: applyForm } = useApplyLauncher();

  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <PageMeta title={t('metaTitle')} description={t('metaDescription')} path="/careers" />
      <div className={s.hero}>
        <div className="container">
          <h1>{t('title')}</h1>
          <p className={s.intro}>{t('intro')}</p>
        </div>
      </div>
      <div className={`container ${s.body}`}>
        {(list.matches('loading') || list.matches({ failed: 'readingKept' })) && (
          <>
            <p className={s.status} role="status">
              <span className={s.spinner} aria-hidden="true" />
              {t('loading')}
            </p>
            {/* Placeholders where the cards will be, so the page does not jump when they come. */}
            <div className={s.grid} aria-hidden="true">
              <div className={s.skeleton} />
              <div className={s.skeleton} />
              <div className={s.skeleton} />
            </div>
          </>
        )}
        {failed && !kept && (
          <div className={s.failed} role="alert">
            <p>{t('failed')}</p>
            <button type="button" className={s.retry} onClick={() => sendList({ type: 'list.retry' })}>
              {t('retry')}
            </button>
          </div>
        )}
        {list.matches('ready') && list.context.rows.length === 0 && (
          <p className={s.status} role="status">
            {t('empty')}
          </p>
        )}
        {keptPageAt && !failed && list.context.page === firstPage && (
          <p className={s.kept} role="status">
            {t('offline:savedCopy', { date: formatSavedAt(keptPageAt, i18n.language) })}
          </p>
        )}
        {failed && kept && keptAt && (
          <p className={s.kept} role="status">
            {t('offline:savedCopy', { date: formatSavedAt(keptAt, i18n.language) })}
            <button type="button" className={s.keptRetry} onClick={() => sendList({ type: 'list.retry' })}>
              {t('retry')}
            </button>
          </p>
        )}
        {openings && openings.length > 0 && (
          <>
            <div className={s.grid}>
              {openings.map((job) => (
                <JobCard key={job.job_id} job={job} onApply={apply} />
              ))}
            </div>
          </>
        )}
        <PagePager pagination={listActor} ns="careers" disabled={list.matches('loading')} />
      </div>
      <div className="container">
        <WaitingToSend kind="application" />
      </div>
      {applyForm}
    </main>
  );
}
