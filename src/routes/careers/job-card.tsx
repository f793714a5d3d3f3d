import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { jobPath, type JobOpeningRow } from '../../../contract/jobs';
import { htmlBlocks } from '../../../contract/rich-text';
import { jobCardText, jobTypeKey } from './job-text';
import { warmApplyFlow } from './apply-launcher';
import { LineIcon } from '../../components/icons';
import s from './job-card.module.css';

const Icon = ({ d }: { d: string }) => (
  <LineIcon size={16}>
    <path d={d} />
  </LineIcon>
);
const PIN = 'M12 21s-7-6.1-7-11a7 7 0 0 1 14 0c0 4.9-7 11-7 11zm0-8.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z';
const CLOCK = 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-13v4.5l3 2';
const DESK = 'M3 10h18M5 10v10M19 10v10M8 10V6a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v4';
const BUILDING =
  'M4 21V5a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v16M16 9h2a2 2 0 0 1 2 2v10M8 7h4M8 11h4M8 15h4M3 21h18';

/**
 * One opening: title, Location, Type, Department, About the Role, the two lists, and Apply. On
 * /careers (a card) the title links to the opening's own page; on that page (`page`) the title is
 * the page's heading and the Description comes first, whole.
 */
export function JobCard({
  job,
  onApply,
  page = false,
}: {
  job: JobOpeningRow;
  onApply: (job: JobOpeningRow) => void;
  page?: boolean;
}) {
  const { t } = useTranslation('careers');
  const titleId = useId();
  const text = useMemo(() => jobCardText(job), [job]);
  const description = useMemo(() => (page ? htmlBlocks(job.description) : []), [job, page]);
  const typeKey = jobTypeKey(job.job_type_name);
  const Heading = page ? 'h1' : 'h2';
  const Section = page ? 'h2' : 'h3';
  return (
    <article className={`${s.card} ${page ? s.page : ''}`} aria-labelledby={titleId}>
      <Heading id={titleId} className={s.title}>
        {page ? job.job_title : <Link to={jobPath(job)}>{job.job_title}</Link>}
      </Heading>
      <dl className={s.meta}>
        <div>
          <dt>
            <Icon d={PIN} />
            {t('card.location')}
          </dt>
          <dd>{job.location}</dd>
        </div>
        <div>
          <dt>
            <Icon d={CLOCK} />
            {t('card.type')}
          </dt>
          <dd>{typeKey ? t(`card.types.${typeKey}`) : job.job_type_name}</dd>
        </div>
        {job.work_type && typeKey !== 'remote' && (
          <div>
            <dt>
              <Icon d={DESK} />
              {t('card.workplace')}
            </dt>
            <dd>{t(`card.workTypes.${job.work_type}`)}</dd>
          </div>
        )}
        <div>
          <dt>
            <Icon d={BUILDING} />
            {t('card.department')}
          </dt>
          <dd>{job.department}</dd>
        </div>
      </dl>
      {description.length > 0 && (
        <div className={s.description}>
          {description.map((block, i) => (
            <p key={i}>{block}</p>
          ))}
        </div>
      )}
      {text.about && (
        <section className={s.section}>
          <Section>{t('card.about')}</Section>
          <p>{text.about}</p>
        </section>
      )}
      {text.responsibilities.length > 0 && (
        <section className={s.section}>
          <Section>{t('card.responsibilities')}</Section>
          <ul>
            {text.responsibilities.map((item, i) => (
              <li key={i}>{item}</li>
            ))}
          </ul>
        </section>
      )}
      {text.requirements.length > 0 && (
        <section className={s.section}>
          <Section>{t('card.requirements')}</Section>
          <ul>
            {text.requirements.map((item, i) => (
              <li key={i}>{item}</li>
            ))}
          </ul>
        </section>
      )}
      <div className={s.actions}>
        <button
          type="button"
          className={s.apply}
          aria-describedby={titleId}
          onPointerEnter={warmApplyFlow}
          onFocus={warmApplyFlow}
          onClick={() => onApply(job)}
        >
          {t('card.apply')}
        </button>
      </div>
    </article>
  );
}
