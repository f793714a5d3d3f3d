import { useId, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useMachine } from '@xstate/react';
import { Modal } from '../modal';
import { CloseIcon, SearchIcon } from '../icons';
import { useLanguage } from '../../i18n/use-language';
import { shownResults } from '../../machines/site-search.machine';
import { liveSiteSearchMachine } from './site-search.live';
import {
  fieldClass,
  inputClass,
  SearchCount,
  SearchNotices,
  SearchResults,
  searchAddress,
} from './search-results';
import s from './search-dialog.module.css';

/**
 * The header's search (docs/decisions/040-site-search-screens.md), loaded the first time it opens:
 * a modal with a combobox. Results follow the typing; the arrow keys move through them, Enter
 * opens the highlighted one (or, with none, every result on /search), Escape or the backdrop
 * closes it and focus goes back to the header's button. The count is announced.
 */
export default function SearchDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('search');
  const [lang] = useLanguage();
  const navigate = useNavigate();
  const [state, send] = useMachine(liveSiteSearchMachine, { input: { lang } });
  const { q, answer, active } = state.context;
  const listboxId = useId();
  const optionId = (i: number) => `${listboxId}-option-${i}`;
  const results = shownResults(answer);
  const go = (to: string) => {
    onClose();
    void navigate(to);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      send({ type: e.key === 'ArrowDown' ? 'active.next' : 'active.previous' });
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const chosen = results[active];
      if (chosen) go(chosen.url);
      else if (q.trim() !== '') go(searchAddress(q.trim()));
    }
  };

  const showing = state.matches('showing') && answer !== null;
  const hasOptions = showing && results.length > 0;
  return (
    <Modal open title={t('title')} onClose={onClose}>
      <div className={`${fieldClass} ${s.field}`}>
        <SearchIcon size={20} />
        <input
          type="search"
          role="combobox"
          aria-label={t('label')}
          aria-expanded={hasOptions}
          aria-controls={hasOptions ? listboxId : undefined}
          aria-activedescendant={hasOptions && active >= 0 ? optionId(active) : undefined}
          aria-autocomplete="list"
          autoFocus
          value={q}
          maxLength={200}
          autoComplete="off"
          enterKeyHint="search"
          placeholder={t('placeholder')}
          className={inputClass}
          onChange={(e) => send({ type: 'query.change', q: e.target.value })}
          onKeyDown={onKeyDown}
        />
      </div>
      <SearchCount snapshot={state} />
      <div className={s.body}>
        <SearchNotices snapshot={state} onRetry={() => send({ type: 'retry' })} />
        {answer && !state.matches('idle') && (
          <SearchResults
            answer={answer}
            pageLang={lang}
            onLeave={onClose}
            asOptions={{ listboxId, optionId, active, onChoose: (r) => go(r.url) }}
          />
        )}
      </div>
      <div className={s.foot}>
        {q.trim() !== '' ? (
          <Link to={searchAddress(q.trim())} onClick={onClose}>
            {t('allResults', { q: q.trim() })}
          </Link>
        ) : (
          <span />
        )}
        <span className={s.keys} aria-hidden="true">
          {t('keys')}
        </span>
      </div>
      {/* after the text box, which the dialog focuses first; drawn in the corner */}
      <button type="button" className={s.close} onClick={onClose}>
        <CloseIcon size={22} />
        <span className="visually-hidden">{t('close')}</span>
      </button>
    </Modal>
  );
}
