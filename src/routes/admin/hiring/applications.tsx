import { useMachine, useSelector } from '@xstate/react';
import { mailtoHref } from '../../../components/mailto-href';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useFollowAddress } from '../../follow-address';
import { exportCsvUrl } from '../../../api/admin-applications';
import {
  APPLICATION_PAGE_SIZE,
  APPLICATION_STATUSES,
  type ApplicationFilters,
  type ApplicationListRow,
  type ApplicationStatus,
} from '../../../../contract/admin-applications';
import { LineIcon } from '../../../components/icons';
import { Modal } from '../../../components/modal';
import type { applicationDetailMachine } from '../../../machines/application-detail.machine';
import type { ApplicationsListEvent } from '../../../machines/applications-list.machine';
import { useAdminSession } from '../shared/admin-context';
import { ApplicationTimeline } from './application-timeline';
import { applicationDetailLive, applicationsListLive } from './applications.live';
import { formatDay, Pager, showingFigures } from '../shared/pager';
import s from '../shared/inbox.module.css';

const NO_ROWS: ApplicationListRow[] = [];

/** The filters and page of the address bar (?search=&startdate=&enddate=&status=&job_id=&application=&page=). */
function addressView(params: URLSearchParams) {
  return {
    filters: {
      search: params.get('search') ?? '',
      startdate: params.get('startdate') ?? '',
      enddate: params.get('enddate') ?? '',
      status: (params.get('status') ?? '') as ApplicationFilters['status'],
      job_id: params.get('job_id') ?? '',
      applicationid: params.get('application') ?? '',
    },
    page: Number(params.get('page') ?? '1'),
  };
}

/**
 * Admin: Job Application Details. Thin: the list machine owns filters,
 * pages and loading; the detail machine owns the modal. Filters live in the address bar.
 */
export function ApplicationsScreen() {
  const { t, i18n } = useTranslation('admin-inbox');
  const { can } = useAdminSession();
  const [params, setParams] = useSearchParams();

  const [listMachine] = useState(() =>
    applicationsListLive((query) => setParams(new URLSearchParams(query))),
  );
  const [initial] = useState(() => addressView(params));
  const [screen, sendList, listActor] = useMachine(listMachine, {
    input: { pageSize: APPLICATION_PAGE_SIZE, filters: initial.filters, page: initial.page },
  });

  const [detailMachine] = useState(() =>
    applicationDetailLive(i18n, {
      updated: (row) => listActor.send({ type: 'row.updated', row }),
      deleted: () => listActor.send({ type: 'row.deleted' }),
    }),
  );
  const [detail, sendDetail] = useMachine(detailMachine);

  // Back/forward and links change the address: the list follows (same view: ignored).
  useFollowAddress((address) => {
    const view = addressView(address);
    listActor.send({ type: 'address.change', filters: view.filters, page: view.page });
  });

  const { draft, filterError } = screen.context;
  const listRef = screen.children.list;
  const list = useSelector(listRef, (snapshot) => snapshot);
  const rows = list?.context.rows ?? NO_ROWS;
  const page = list?.context.page ?? 1;
  const pageSize = APPLICATION_PAGE_SIZE;
  const filters = list?.context.query ?? initial.filters;
  const loading = !list || list.matches('loading');
  const figures = showingFigures(page, pageSize, rows.length, list?.context.total ?? 0, i18n.language);
  const send = (event: ApplicationsListEvent) => sendList(event);

  // A staff notice's link (?application=ID) opens that application's detail once it has loaded,
  // once per address: closing it leaves the list showing it.
  const openedFor = useRef('');
  const only = list?.matches('ready') && filters.applicationid && rows.length === 1 ? rows[0] : undefined;
  useEffect(() => {
    if (!only || openedFor.current === String(only.application_id)) return;
    openedFor.current = String(only.application_id);
    sendDetail({ type: 'detail.open', row: only });
  }, [only, sendDetail]);

  return (
    <section className={s.screen} aria-labelledby="applications-title">
      <div className={s.top}>
        <h2 id="applications-title" className={s.title}>
          {t('applications.title')}
        </h2>
        <a className={s.export} href={exportCsvUrl(filters)} download>
          <DownloadIcon />
          {t('applications.export')}
        </a>
      </div>

      <Filters
        draft={draft}
        error={filterError}
        onChange={(field, value) => send({ type: 'filter.change', field, value })}
        onSubmit={() => send({ type: 'filter.submit' })}
        onClear={() => send({ type: 'filter.clear' })}
      />

      {filters.job_id && (
        <NarrowedTo
          what={
            rows[0]?.job_title
              ? t('applications.opening', { title: rows[0].job_title })
              : t('applications.openingById', { id: filters.job_id })
          }
          widen={t('applications.allOpenings')}
          onWiden={() => send({ type: 'filter.drop', field: 'job_id' })}
        />
      )}
      {filters.applicationid && (
        <NarrowedTo
          what={t('applications.oneApplication', { id: filters.applicationid })}
          widen={t('applications.allApplications')}
          onWiden={() => send({ type: 'filter.drop', field: 'applicationid' })}
        />
      )}

      {loading && (
        <p role="status" className={s.status}>
          {t('applications.loading')}
        </p>
      )}
      {list?.matches('failed') && (
        <div role="alert" className={s.failed}>
          <p>{list.context.loadError ?? t('applications.failed')}</p>
          <button type="button" className={s.secondary} onClick={() => listRef?.send({ type: 'list.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {list?.matches('ready') && rows.length === 0 && (
        <p className={s.empty}>{t(filters.job_id ? 'applications.emptyOpening' : 'applications.empty')}</p>
      )}
      {list?.matches('ready') && rows.length > 0 && (
        <>
          <p className={s.showing} aria-live="polite">
            {t('applications.showing', figures)}
          </p>
          <div className={s.tableWrap} tabIndex={0} role="region" aria-label={t('applications.tableLabel')}>
            <table className={s.table}>
              <thead>
                <tr>
                  <th scope="col">{t('applications.columns.sNo')}</th>
                  <th scope="col">{t('applications.columns.name')}</th>
                  <th scope="col">{t('applications.columns.email')}</th>
                  <th scope="col">{t('applications.columns.contact')}</th>
                  <th scope="col">{t('applications.columns.jobRole')}</th>
                  <th scope="col">{t('applications.columns.appliedDate')}</th>
                  <th scope="col">{t('applications.columns.status')}</th>
                  <th scope="col">{t('applications.columns.action')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row, i) => (
                  <tr key={row.application_id}>
                    <td data-label={t('applications.columns.sNo')}>{(page - 1) * pageSize + i + 1}</td>
                    <td data-label={t('applications.columns.name')}>
                      <span className={s.name}>{row.full_name}</span>
                      {row.is_duplicate && (
                        <span className={s.duplicate} title={t('applications.duplicateHint')}>
                          {t('applications.duplicate')}
                          <span className={s.sr}> ({t('applications.duplicateHint')})</span>
                        </span>
                      )}
                    </td>
                    <td className={s.email} data-label={t('applications.columns.email')}>
                      {row.email}
                    </td>
                    <td className={s.nowrap} data-label={t('applications.columns.contact')}>
                      {row.contact_display ?? row.contact_number}
                    </td>
                    <td data-label={t('applications.columns.jobRole')}>
                      {row.job_title ?? t('applications.na')}
                    </td>
                    <td className={s.nowrap} data-label={t('applications.columns.appliedDate')}>
                      <time dateTime={row.applied_date}>{formatDay(row.applied_date, i18n.language)}</time>
                    </td>
                    <td data-label={t('applications.columns.status')}>
                      <StatusBadge status={row.status} />
                    </td>
                    <td data-label={t('applications.columns.action')}>
                      <button
                        type="button"
                        className={s.iconButton}
                        aria-label={t('applications.view', { name: row.full_name })}
                        title={t('applications.viewShort')}
                        onClick={() => sendDetail({ type: 'detail.open', row })}
                      >
                        <ViewIcon />
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pager pagination={listRef} label={t('pager.applications')} />

      <DetailModal
        state={detail}
        canManage={can('applications.manage')}
        send={sendDetail}
        lang={i18n.language}
      />
    </section>
  );
}

function Filters({
  draft,
  error,
  onChange,
  onSubmit,
  onClear,
}: {
  draft: ApplicationFilters;
  error: { field: keyof ApplicationFilters; message: string } | null;
  onChange(field: keyof ApplicationFilters, value: string): void;
  onSubmit(): void;
  onClear(): void;
}) {
  const { t } = useTranslation('admin-inbox');
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  const errorId = `${id}-error`;
  return (
    <form
      className={s.filters}
      role="search"
      aria-label={t('applications.filtersLabel')}
      onSubmit={submit}
      noValidate
    >
      <div className={s.field}>
        <label htmlFor={`${id}-search`}>{t('applications.filters.search')}</label>
        <input
          id={`${id}-search`}
          type="search"
          value={draft.search}
          maxLength={200}
          placeholder={t('applications.filters.searchPlaceholder')}
          onChange={(e) => onChange('search', e.target.value)}
        />
      </div>
      <div className={s.field}>
        <label htmlFor={`${id}-start`}>{t('applications.filters.startDate')}</label>
        <input
          id={`${id}-start`}
          type="date"
          value={draft.startdate}
          max={draft.enddate || undefined}
          aria-invalid={error?.field === 'startdate' || undefined}
          aria-describedby={error?.field === 'startdate' ? errorId : undefined}
          onChange={(e) => onChange('startdate', e.target.value)}
        />
      </div>
      <div className={s.field}>
        <label htmlFor={`${id}-end`}>{t('applications.filters.endDate')}</label>
        <input
          id={`${id}-end`}
          type="date"
          value={draft.enddate}
          min={draft.startdate || undefined}
          onChange={(e) => onChange('enddate', e.target.value)}
        />
      </div>
      <div className={s.field}>
        <label htmlFor={`${id}-status`}>{t('applications.filters.status')}</label>
        <select id={`${id}-status`} value={draft.status} onChange={(e) => onChange('status', e.target.value)}>
          <option value="">{t('applications.filters.allStatuses')}</option>
          {APPLICATION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`status.${status}`)}
            </option>
          ))}
        </select>
      </div>
      <div className={s.filterActions}>
        <button type="submit" className={s.primary}>
          {t('applications.filters.apply')}
        </button>
        <button type="button" className={s.secondary} onClick={onClear}>
          {t('applications.filters.clear')}
        </button>
      </div>
      {error && (
        <p id={errorId} className={s.fieldError} role="alert">
          {t('applications.filters.rangeError', { defaultValue: error.message })}
        </p>
      )}
    </form>
  );
}

/** The list narrowed by an address (one opening, one application), and the way back to all. */
function NarrowedTo({ what, widen, onWiden }: { what: string; widen: string; onWiden(): void }) {
  return (
    <div className={s.openingFilter}>
      <p>{what}</p>
      <button type="button" className={s.secondary} onClick={onWiden}>
        {widen}
      </button>
    </div>
  );
}

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('admin-inbox');
  return (
    <span className={s.badge} data-status={status}>
      {t(`status.${status}`, { defaultValue: status })}
    </span>
  );
}

type DetailSnapshot = ReturnType<typeof useMachine<typeof applicationDetailMachine>>[0];

function DetailModal({
  state,
  canManage,
  send,
  lang,
}: {
  state: DetailSnapshot;
  canManage: boolean;
  send: ReturnType<typeof useMachine<typeof applicationDetailMachine>>[1];
  lang: string;
}) {
  const { t } = useTranslation('admin-inbox');
  const statusId = useId();
  const open = !state.matches('closed');
  const { row, resumeUrl, pendingStatus } = state.context;
  const busy =
    state.matches({ open: { main: 'savingStatus' } }) || state.matches({ open: { main: 'deleting' } });
  const confirming =
    state.matches({ open: { main: 'confirmingDelete' } }) || state.matches({ open: { main: 'deleting' } });
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (state.matches({ open: { main: 'confirmingDelete' } })) confirmRef.current?.focus();
  }, [state]);

  return (
    <Modal
      open={open}
      title={t('detail.title')}
      onClose={() => send({ type: 'detail.close' })}
      closeOnBackdrop={!busy}
    >
      {row && (
        <div className={s.detail}>
          <dl className={s.facts}>
            <div>
              <dt>{t('detail.name')}</dt>
              <dd>
                {row.full_name}
                {row.is_duplicate && <span className={s.duplicate}>{t('applications.duplicate')}</span>}
              </dd>
            </div>
            <div>
              <dt>{t('detail.email')}</dt>
              <dd>
                <a href={mailtoHref(row.email)}>{row.email}</a>
              </dd>
            </div>
            <div>
              <dt>{t('detail.contact')}</dt>
              <dd>
                <a href={`tel:${row.contact_number.replace(/[^\d+]/g, '')}`}>
                  {row.contact_display ?? row.contact_number}
                </a>
              </dd>
            </div>
            <div>
              <dt>{t('detail.address')}</dt>
              <dd className={s.address}>{row.address}</dd>
            </div>
            <div>
              <dt>{t('detail.jobRole')}</dt>
              <dd>{row.job_title ?? t('applications.na')}</dd>
            </div>
            <div>
              <dt>{t('detail.appliedDate')}</dt>
              <dd>
                <time dateTime={row.applied_date}>{formatDay(row.applied_date, lang, true)}</time>
              </dd>
            </div>
            <div>
              <dt>{t('detail.consent')}</dt>
              <dd>
                <time dateTime={row.consent_at}>{formatDay(row.consent_at, lang, true)}</time>
              </dd>
            </div>
          </dl>

          <div className={s.resume}>
            {state.matches({ open: { resume: 'unavailable' } }) ? (
              <p role="alert" className={s.resumeNote}>
                {t('detail.resumeFailed')}{' '}
                <button type="button" className={s.linkButton} onClick={() => send({ type: 'resume.retry' })}>
                  {t('actions.retry')}
                </button>
              </p>
            ) : resumeUrl ? (
              <a className={s.primary} href={resumeUrl} target="_blank" rel="noopener noreferrer">
                <FileIcon />
                {t('detail.viewResume')}
                <span className={s.sr}> ({t('detail.newTab')})</span>
              </a>
            ) : (
              <p role="status" className={s.resumeNote}>
                {t('detail.preparingResume')}
              </p>
            )}
          </div>

          <div className={s.statusRow}>
            <label htmlFor={statusId}>{t('detail.status')}</label>
            <select
              id={statusId}
              className={s.statusSelect}
              value={pendingStatus ?? row.status}
              disabled={!canManage || busy || confirming}
              onChange={(e) => send({ type: 'status.change', status: e.target.value as ApplicationStatus })}
            >
              {APPLICATION_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`status.${status}`)}
                </option>
              ))}
            </select>
            {state.matches({ open: { main: 'savingStatus' } }) && (
              <span role="status" className={s.saving}>
                {t('detail.saving')}
              </span>
            )}
          </div>

          {confirming ? (
            <div className={s.confirm} role="group" aria-labelledby={`${statusId}-confirm`}>
              <p id={`${statusId}-confirm`}>{t('detail.deleteQuestion')}</p>
              <div className={s.actions}>
                <button
                  type="button"
                  className={s.secondary}
                  disabled={busy}
                  onClick={() => send({ type: 'delete.cancel' })}
                >
                  {t('actions.cancel')}
                </button>
                <button
                  ref={confirmRef}
                  type="button"
                  className={s.danger}
                  disabled={busy}
                  onClick={() => send({ type: 'delete.confirm' })}
                >
                  {t(
                    state.matches({ open: { main: 'deleting' } })
                      ? 'detail.deleting'
                      : 'detail.deleteConfirm',
                  )}
                </button>
              </div>
            </div>
          ) : (
            <div className={s.actions}>
              {canManage && (
                <button
                  type="button"
                  className={s.dangerOutline}
                  disabled={busy}
                  onClick={() => send({ type: 'delete.ask' })}
                >
                  {t('detail.delete')}
                </button>
              )}
              <button
                type="button"
                className={s.secondary}
                disabled={busy}
                onClick={() => send({ type: 'detail.close' })}
              >
                {t('actions.close')}
              </button>
            </div>
          )}

          <ApplicationTimeline
            key={row.application_id}
            applicationId={row.application_id}
            version={row.version ?? 1}
            lang={row.lang ?? 'en'}
            canManage={canManage}
            offerRejection={state.context.rejections}
          />
        </div>
      )}
    </Modal>
  );
}

const Icon = LineIcon;
const ViewIcon = () => (
  <Icon>
    <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </Icon>
);
const DownloadIcon = () => (
  <Icon>
    <path d="M12 3v12M7 10l5 5 5-5M5 21h14" />
  </Icon>
);
const FileIcon = () => (
  <Icon>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5" />
  </Icon>
);
