import { useId, type KeyboardEvent } from 'react';
import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { hoverMenuMachine } from '../../machines/hover-menu.machine';
import { TOOLTIP_DELAYS } from '../../components/header';
import { LAND_PATH, MAP_HEIGHT, MAP_WIDTH, project } from '../../content/world-map';
import type { Office } from '../../content/offices';
import s from './office-map.module.css';

/**
 * The offices on an inline SVG world map (no map tiles: it works offline and asks no third party).
 * Each marker is a button; hovering or focusing it shows the office's tooltip after the spec's
 * tooltip delay (700 ms; 300 ms skip delay when moving from one marker to the next), clicking
 * toggles it (touch), Escape hides it. The tooltip content is always in the page (hidden), so
 * it is prerendered and is the marker's description for assistive technology.
 */
export function OfficeMap({ offices }: { offices: Office[] }) {
  const { t } = useTranslation('contact');
  const [state, send] = useMachine(hoverMenuMachine, { input: TOOLTIP_DELAYS });
  const active = state.context.active;
  const baseId = useId();

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && active) send({ type: 'menu.dismiss' });
  };

  return (
    <div className={s.map} onKeyDown={onKeyDown}>
      <svg
        className={s.world}
        width={MAP_WIDTH}
        height={MAP_HEIGHT}
        viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`}
        role="img"
        aria-label={t('map.label')}
      >
        <g className={s.graticule}>
          {[0.2, 0.4, 0.6, 0.8].map((f) => (
            <path key={f} d={`M0 ${Math.round(MAP_HEIGHT * f)}H${MAP_WIDTH}`} />
          ))}
        </g>
        <path className={s.land} d={LAND_PATH} />
      </svg>
      {offices.map((office) => {
        const { x, y } = project(office.lon, office.lat);
        const left = (x / MAP_WIDTH) * 100;
        const top = (y / MAP_HEIGHT) * 100;
        const open = active === office.id;
        const tipId = `${baseId}-${office.id}`;
        const city = t(`offices.${office.id}.city`);
        const country = t(`offices.${office.id}.country`);
        const align = left < 30 ? s.alignStart : left > 70 ? s.alignEnd : s.alignCenter;
        return (
          <div
            key={office.id}
            className={s.marker}
            style={{ left: `${left}%`, top: `${top}%` }}
            onMouseEnter={() => send({ type: 'item.enter', id: office.id })}
            onMouseLeave={() => send({ type: 'item.leave' })}
          >
            <button
              type="button"
              className={s.pin}
              aria-label={t('map.marker', { city, country })}
              aria-describedby={tipId}
              aria-expanded={open}
              data-office={office.id}
              onFocus={() => send({ type: 'item.enter', id: office.id })}
              onBlur={() => send({ type: 'item.leave' })}
              onClick={() => send({ type: 'item.click', id: office.id })}
            >
              <span className={s.pulse} aria-hidden="true" />
              <span className={s.dot} aria-hidden="true" />
            </button>
            <div id={tipId} role="tooltip" className={`${s.tooltip} ${align}`} hidden={!open}>
              <p className={s.tipHead}>
                <span className={s.tipCity}>{city}</span>
                {office.isHeadquarters && <span className={s.hq}>{t('map.hq')}</span>}
              </p>
              <p className={s.tipCountry}>{country}</p>
              <p className={s.tipLine}>{office.address}</p>
              <p className={s.tipLine}>{office.phone}</p>
              <p className={s.tipLine}>{office.email}</p>
            </div>
          </div>
        );
      })}
    </div>
  );
}
