import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import v from './insights.module.css';

/**
 * The Insights screen's line chart of visitors and page views per day: uPlot (about 20 kB gzip, a
 * canvas), loaded only with this screen. The canvas is hidden from assistive technology: the same
 * figures are one button away as a table (insights.tsx DaysFigure). It takes the width of its box
 * and follows it (a phone, a sidebar folded).
 */
export default function DayChart({
  days,
  labels,
  lang,
}: {
  days: { day: string; visitors: number; views: number }[];
  labels: { visitors: string; views: string };
  lang: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { visitors, views } = labels;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const css = getComputedStyle(el);
    const brand = css.getPropertyValue('--color-brand').trim() || '#1d4ed8';
    const muted = css.getPropertyValue('--color-muted').trim() || '#5b6475';
    const date = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    const number = new Intl.NumberFormat(lang);
    const data: uPlot.AlignedData = [
      days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
      days.map((d) => d.visitors),
      days.map((d) => d.views),
    ];
    const chart = new uPlot(
      {
        width: el.clientWidth,
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { live: false },
        cursor: { drag: { x: false, y: false } },
        scales: { y: { range: (_u, _min, max) => [0, Math.max(4, max * 1.1)] } },
        axes: [
          {
            stroke: muted,
            values: (_u, splits) => splits.map((s) => date.format(new Date(s * 1000))),
            grid: { stroke: 'rgba(0,0,0,0.06)' },
          },
          {
            stroke: muted,
            // whole visitors and views: no 2.5 on the axis
            incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6],
            values: (_u, splits) => splits.map((s) => number.format(s)),
            grid: { stroke: 'rgba(0,0,0,0.06)' },
          },
        ],
        series: [
          {},
          { label: visitors, stroke: brand, width: 2, fill: 'rgba(29,78,216,0.08)' },
          { label: views, stroke: '#b45309', width: 2, dash: [6, 4] },
        ],
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, visitors, views, lang]);
  return <div ref={box} className={v.chart} aria-hidden="true" />;
}
