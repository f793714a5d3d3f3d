import { useMachine, useSelector } from '@xstate/react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useFollowAddress } from '../../follow-address';
import {
  JOB_PAGE_SIZE,
  JOB_STATUSES,
  JobStatus,
  jobPath,
  type JobOpeningRow,
  type JobTypeRow,
} from '../../../../contract/jobs';
import { Modal } from '../../../components/modal';
import { cleanPage, pageQuery } from '../../../../contract/paging';
import { APPLICATION_STATUSES } from '../../../../contract/admin-applications';
import { RICH_TEXT_FIELDS } from '../../../../contract/jobs-admin';
import { htmlToText } from '../../../../contract/rich-text';
import { EditIcon, ExternalIcon, PlusIcon, TrashIcon } from '../shared/admin-icons';
import OutboxList from '../../../components/outbox-list';
import { useAdminSession } from '../shared/admin-context';
import { useTakeUp } from '../shared/queued-changes.live';
import { CloseOpeningDialog } from './close-opening-dialog';
import { ConfirmDelete } from '../shared/confirm-delete';
import { JobFormDialog, type JobFormDialogHandle } from './job-form-dialog';
import { openingsLive } from './openings.live';
import { Pager } from '../shared/pager';
import s from './openings.module.css';

/** Job text preview 150 characters, '...' appended when longer. */
export const PREVIEW_LENGTH = 150;
export function preview(html: string): string {
  // list items and paragraphs read as separate sentences, not one run-on line
  const text = htmlToText(html.replace(/<\/(li|p|h[1-6]|ul|ol)>\s*(?=<(li|p|h[1-6]|ul|ol)\b)/gi, '; </$1>'))
    .replace(/\s*;\s*/g, '; ')
    .replace(/([.!?:]);/g, '$1');
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}...` : text;
}

const NO_JOBS: JobOpeningRow[] = [];
const NO_TYPES: JobTypeRow[] = [];

/** Admin: Current Openings. */
export function OpeningsScreen() {
  const { t, i18n } = useTranslation('admin');
  const formRef = useRef<JobFormDialogHandle>(null);
  const [params, setParams] = useSearchParams();

  const { user } = useAdminSession();
  const [machine] = useState(() =>
    openingsLive(i18n, (page) => setParams(new URLSearchParams(pageQuery(page))), user.user_id),
  );
  const [state, send] = useMachine(machine, {
    input: {
      page: cleanPage(params.get('page')),
      pageSize: JOB_PAGE_SIZE,
      mayReject: user.permissions.includes('applications.manage'),
    },
  });
  const { pendingDelete, pendingStatus } = state.context;
  // a change made offline that met someone else's: the job form opens it in its conflict view
  // (a form in use keeps its work; the change stays in 'Waiting to send' with Resolve)
  const queuedRef = state.children.queued;
  useTakeUp(queuedRef, formRef, i18n);
  const listRef = state.children.list;
  const list = useSelector(listRef, (snapshot) => snapshot);
  const jobs = list?.context.rows ?? NO_JOBS;
  const jobTypes = list?.context.meta?.jobTypes ?? NO_TYPES;
  const loading = list?.matches('loading') ?? true;
  const failed = list?.matches('failed') ?? false;
  const deleting = state.matches('deleting');
  // Back and forward change the address: the list follows (the page shown already: ignored).
  useFollowAddress((address) =>
    listRef?.send({ type: 'list.follow', query: null, page: cleanPage(address.get('page')) }),
  );

  return (
    <section className={s.screen} aria-labelledby="openings-subtitle">
      <div className={s.top}>
        <p id="openings-subtitle" className={s.subtitle}>
          {t('openings.subtitle')}
        </p>
        <button
          type="button"
          className={s.add}
          onClick={() => formRef.current?.open()}
          disabled={!list?.matches('ready') || !state.matches('idle')}
        >
          <PlusIcon />
          {t('openings.add')}
        </button>
      </div>

      {/* this person's changes made without a connection, sent when it is back */}
      <OutboxList
        kind="job-opening"
        owner={user.user_id}
        onResolve={(id) => queuedRef?.send({ type: 'queued.resolve', id })}
      />

      {loading && <p role="status">{t('openings.loading')}</p>}
      {failed && (
        <div className={s.empty} role="alert">
          <p>{t('openings.failed')}</p>
          <button type="button" className={s.secondary} onClick={() => listRef?.send({ type: 'list.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {list?.matches('ready') && jobs.length === 0 && (
        <div className={s.empty}>
          <p className={s.emptyTitle}>{t('openings.empty')}</p>
          <p>{t('openings.emptyHint')}</p>
        </div>
      )}
      {!loading && !failed && jobs.length > 0 && (
        <ul className={s.grid} aria-label={t('nav.openings')}>
          {jobs.map((job) => (
            <JobCard
              key={job.job_id}
              job={job}
              onEdit={() => formRef.current?.open(job)}
              onDelete={() => send({ type: 'delete.ask', job })}
              onStatus={(status) => send({ type: 'status.change', job, status })}
              deleting={deleting && pendingDelete?.job_id === job.job_id}
              changing={pendingStatus?.job.job_id === job.job_id}
              busy={!state.matches('idle')}
            />
          ))}
        </ul>
      )}
      <Pager pagination={listRef} label={t('openings.pages')} />

      <JobFormDialog
        ref={formRef}
        jobTypes={jobTypes}
        onSaved={(row, created) => send({ type: 'job.saved', mode: created ? 'create' : 'edit', row })}
      />

      <ConfirmDelete
        open={state.matches('confirmingDelete') || deleting}
        deleting={deleting}
        title={t('openings.deleteTitle')}
        question={t('openings.deleteQuestion')}
        which={pendingDelete?.job_title}
        labels={{
          cancel: t('actions.cancel'),
          delete: t('actions.delete'),
          deleting: t('openings.deleting'),
        }}
        send={send}
      />

      {/* an opening with applications is closed, not deleted: their job stays theirs */}
      <Modal
        open={state.matches('offeringClose')}
        title={t('openings.closeTitle')}
        onClose={() => send({ type: 'delete.cancel' })}
      >
        <p>{t('openings.closeQuestion', { count: pendingDelete?.application_count ?? 0 })}</p>
        {pendingDelete && <p className={s.which}>{pendingDelete.job_title}</p>}
        <div className={s.actions}>
          <button type="button" className={s.secondary} onClick={() => send({ type: 'delete.cancel' })}>
            {t('actions.cancel')}
          </button>
          <button type="button" className={s.primary} onClick={() => send({ type: 'close.confirm' })}>
            {t('openings.close')}
          </button>
        </div>
      </Modal>

      <CloseOpeningDialog
        change={state.matches('askingClose') ? pendingStatus : null}
        error={state.context.closeError}
        send={send}
      />
    </section>
  );
}

function JobCard({
  job,
  onEdit,
  onDelete,
  onStatus,
  deleting,
  changing,
  busy,
}: {
  job: JobOpeningRow;
  onEdit(): void;
  onDelete(): void;
  onStatus(status: JobStatus): void;
  deleting: boolean;
  changing: boolean;
  /** Another change of the list is under way: this card's controls wait. */
  busy: boolean;
}) {
  const { t } = useTranslation(['admin', 'admin-inbox']);
  const { can } = useAdminSession();
  const headingId = `job-${job.job_id}-title`;
  const status = job.status ?? 'Open';
  // "2 New · 1 Interview", in the statuses' own order
  const byStatus = job.application_statuses ?? {};
  const breakdown = APPLICATION_STATUSES.filter((st) => (byStatus[st] ?? 0) > 0)
    .map((st) => `${byStatus[st]} ${t(`status.${st}`, { ns: 'admin-inbox' })}`)
    .join(' · ');
  return (
    <li
      className={s.card}
      data-status={status}
      aria-labelledby={headingId}
      aria-busy={deleting || changing || undefined}
    >
      <div className={s.cardHead}>
        <h2 id={headingId} className={s.cardTitle}>
          {job.job_title}
        </h2>
        <div className={s.icons}>
          {status === 'Open' && (
            <a
              className={s.icon}
              href={jobPath(job)}
              target="_blank"
              rel="noopener"
              aria-label={t('openings.view', { title: job.job_title })}
              title={t('openings.viewOnSite')}
            >
              <ExternalIcon />
            </a>
          )}
          <button
            type="button"
            className={s.icon}
            onClick={onEdit}
            aria-label={t('openings.edit', { title: job.job_title })}
            title={t('actions.edit')}
          >
            <EditIcon />
          </button>
          <button
            type="button"
            className={`${s.icon} ${s.iconDanger}`}
            onClick={onDelete}
            aria-label={t('openings.delete', { title: job.job_title })}
            title={t('actions.delete')}
          >
            <TrashIcon />
          </button>
        </div>
      </div>
      <dl className={s.meta}>
        <div>
          <dt>{t('openings.department')}</dt>
          <dd>{job.department}</dd>
        </div>
        <div>
          <dt>{t('openings.location')}</dt>
          <dd>{job.location}</dd>
        </div>
        <div>
          <dt>{t('openings.type')}</dt>
          <dd>{job.job_type_name}</dd>
        </div>
        {job.application_count !== undefined && (
          <div>
            <dt className={s.hiddenTerm}>{t('nav.applications')}</dt>
            <dd>
              {can('applications.read') && job.application_count > 0 ? (
                <Link
                  to={`/admin/job_applications?job_id=${job.job_id}`}
                  aria-label={t('openings.viewApplications', {
                    count: job.application_count,
                    title: job.job_title,
                  })}
                >
                  {t('openings.applications', { count: job.application_count })}
                </Link>
              ) : (
                t('openings.applications', { count: job.application_count })
              )}
              {breakdown && <span className={s.breakdown}>{breakdown}</span>}
            </dd>
          </div>
        )}
      </dl>
      <label className={s.status}>
        <span>{t('openings.status')}</span>
        <select
          value={status}
          aria-label={t('openings.statusOf', { title: job.job_title })}
          disabled={busy}
          onChange={(e) => onStatus(JobStatus.parse(e.target.value))}
        >
          {JOB_STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(`openings.statuses.${value}`)}
            </option>
          ))}
        </select>
      </label>
      {status === 'Draft' && (
        <button
          type="button"
          className={s.publish}
          disabled={busy}
          aria-label={t('openings.publishOf', { title: job.job_title })}
          onClick={() => onStatus('Open')}
        >
          {t('openings.publish')}
        </button>
      )}
      {RICH_TEXT_FIELDS.map((field) => (
        <div key={field} className={s.previewBlock}>
          <h3>{t(`fields.${field}`)}</h3>
          <p data-field={field}>{preview(job[field])}</p>
        </div>
      ))}
    </li>
  );
}
