import { cellCounts, cellLabel, SHORT_LABELS } from '@pulsecheck/shared/insights/rules';
import {
  INSIGHTS_MESSAGES,
  type InsightCell,
  type InsightsResponse,
  type InsightTeam,
} from '@pulsecheck/shared/insights/schemas';
import {
  distributionBar,
  HEALTH_LABEL_MESSAGES,
  type HealthLabel,
  type TrendDirection,
} from '@pulsecheck/shared/results/rules';
import {
  memo,
  startTransition,
  useLayoutEffect,
  useRef,
  useState,
  type MouseEvent,
  type RefObject,
} from 'react';
import { useNavigate } from 'react-router';
import { cn } from '@/lib/cn';
import { formats, say, t } from '@/lib/i18n';

/** Width of a team's column, in pixels: the visible columns are worked out from it. */
const COLUMN_WIDTH = 112;
/** Up to this many teams every column is drawn (and printed); beyond, only those in view and a few either side. */
export const ALL_COLUMNS_UP_TO = 24;
const OVERSCAN = 3;
/** Columns drawn before the first measurement (and where nothing can be measured). */
const FIRST_PAINT_COLUMNS = 12;

export const TONES: Record<HealthLabel, string> = {
  'Mostly Healthy': 'bg-green-100 text-green-900',
  'Mixed Health': 'bg-amber-50 text-amber-900',
  'Needs Attention': 'bg-orange-100 text-orange-900',
  'Needs Immediate Attention': 'bg-red-100 text-red-900',
  'No Ratings': 'bg-slate-50 text-slate-700',
  'No Data': 'bg-slate-50 text-slate-700',
};

// Arrows as text, not icons: a scroll across 500 columns mounts hundreds of cells at a time. They point forward
// (rtl:-scale-x-100), as the columns run.
const TREND: Record<TrendDirection, { arrow: string; className: string }> = {
  better: { arrow: '↗', className: 'text-green-800' },
  same: { arrow: '→', className: 'text-slate-700' },
  worse: { arrow: '↘', className: 'text-red-800' },
};

export function TrendArrow({ trend }: { trend: TrendDirection | null }) {
  if (!trend) return null;
  const { arrow, className } = TREND[trend];
  return (
    <span
      className={cn('inline-block shrink-0 text-sm leading-none font-bold rtl:-scale-x-100', className)}
      aria-hidden="true"
    >
      {arrow}
    </span>
  );
}

/** What a cell says in words: its label, its shares and its arrow. */
function describeCell(cell: InsightCell) {
  const counts = cellCounts(cell);
  const label = cellLabel(counts);
  const bar = distributionBar(counts);
  const percent = (share: number) => formats().percent(share / 100);
  return {
    label,
    bar,
    text: t('insights.cell.description', {
      label: t(HEALTH_LABEL_MESSAGES[label]),
      healthy: percent(bar.healthy),
      needsImprovement: percent(bar.needsImprovement),
      fireWarning: percent(bar.fireWarning),
      trend: cell[4] ?? 'none',
    }),
  };
}

function CellBody({ cell }: { cell: InsightCell }) {
  const { label, bar } = describeCell(cell);
  return (
    <>
      <span className="flex items-center justify-between gap-1">
        <span className="truncate text-xs font-semibold">{t(SHORT_LABELS[label])}</span>
        <TrendArrow trend={cell[4]} />
      </span>
      <span className="mt-1 flex h-1.5 overflow-hidden rounded-full bg-white/70" aria-hidden="true">
        <span className="bg-green-600" style={{ width: `${bar.healthy}%` }} />
        <span className="bg-amber-500" style={{ width: `${bar.needsImprovement}%` }} />
        <span className="bg-red-600" style={{ width: `${bar.fireWarning}%` }} />
      </span>
    </>
  );
}

const CELL = 'block h-full min-h-12 px-2 py-1.5 text-start';

/** One team's cell; memoised, so a scroll only draws the columns that come into view. */
const TeamCell = memo(function TeamCell({
  team,
  component,
}: {
  team: InsightTeam;
  component: { key: string; title: string };
}) {
  const cell = team.cells[component.key];
  if (!cell) {
    const hidden = team.hidden.includes(component.key);
    const text = say(hidden ? INSIGHTS_MESSAGES.belowFloor : INSIGHTS_MESSAGES.notInCheck);
    return (
      <span
        className={cn(CELL, 'text-xs text-slate-600')}
        title={t('insights.cell.title', { component: component.title, team: team.name, text })}
      >
        <span aria-hidden="true">{hidden ? t('insights.cell.tooFew') : '—'}</span>
        <span className="sr-only">{text}</span>
      </span>
    );
  }
  const { label, text } = describeCell(cell);
  return (
    <a
      href={`/admin/health-check/${team.check.id}/results#component-${component.key}`}
      className={cn(CELL, TONES[label], 'hover:ring-2 hover:ring-brand-600 hover:ring-inset')}
      // The name holds the visible word too, so speech input can say what the eye reads.
      aria-label={t('insights.cell.label', {
        component: component.title,
        team: team.name,
        short: t(SHORT_LABELS[label]),
        text,
      })}
      title={t('insights.cell.title', { component: component.title, team: team.name, text })}
      data-testid="heat-cell"
    >
      <CellBody cell={cell} />
    </a>
  );
});

/** The columns in view (and a few either side) of a sideways-scrolling map of `count` team columns. */
function useVisibleColumns(
  count: number,
  scroller: RefObject<HTMLDivElement | null>,
  lead: RefObject<HTMLElement | null>,
) {
  const everything = count <= ALL_COLUMNS_UP_TO;
  const [range, setRange] = useState({ first: 0, last: Math.min(count, FIRST_PAINT_COLUMNS) });
  useLayoutEffect(() => {
    const element = scroller.current;
    if (everything || !element) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      // Team columns start after the component names and the Organisation column.
      const start = (lead.current?.offsetWidth ?? 0) + COLUMN_WIDTH;
      const width = element.clientWidth || FIRST_PAINT_COLUMNS * COLUMN_WIDTH;
      const first = Math.max(
        0,
        Math.floor((Math.abs(element.scrollLeft) - COLUMN_WIDTH) / COLUMN_WIDTH) - OVERSCAN,
      );
      const last = Math.min(
        count,
        Math.ceil((Math.abs(element.scrollLeft) + width - start) / COLUMN_WIDTH) + OVERSCAN,
      );
      // A transition: React draws the new columns in slices, so a fast scroll never blocks the page.
      startTransition(() =>
        setRange((now) => (now.first === first && now.last === last ? now : { first, last })),
      );
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(update);
    };
    update();
    element.addEventListener('scroll', schedule, { passive: true });
    const observer = new ResizeObserver(schedule);
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      element.removeEventListener('scroll', schedule);
      observer.disconnect();
    };
  }, [count, everything, scroller, lead]);
  return everything ? { first: 0, last: count } : range;
}

const Spacer = ({ columns }: { columns: number }) =>
  columns > 0 ? <td aria-hidden="true" style={{ width: columns * COLUMN_WIDTH }} /> : null;

/**
 * The heat map: the catalogue's components by category down the side, the Organisation column, then one column per
 * team in `teams`' order. It scrolls both ways inside its frame, names and headings staying in view; with many teams
 * only the columns in view are drawn, so 500 teams scroll as smoothly as 5.
 */
export function HeatMap({ data, teams }: { data: InsightsResponse; teams: InsightTeam[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const lead = useRef<HTMLTableCellElement>(null);
  const { first, last } = useVisibleColumns(teams.length, scroller, lead);
  const navigate = useNavigate();
  // The cells are plain links (a router Link per cell costs too much at this count); one handler opens them in the
  // app, and a modified click (new tab, new window) is left to the browser.
  const open = (event: MouseEvent) => {
    const link = (event.target as Element).closest('a[data-testid="heat-cell"]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    void navigate(link.getAttribute('href') ?? '');
  };
  const visible = teams.slice(first, last);
  const drawn = 2 + visible.length + (first > 0 ? 1 : 0) + (last < teams.length ? 1 : 0);
  const organisation = t('insights.organisationTeams', { count: data.organisation.teams });
  return (
    <div
      ref={scroller}
      // relative: the screen-reader texts inside (absolutely placed) stay within the frame, not the page's width.
      className="relative max-h-[75vh] overflow-auto rounded-xl [--lead:8.5rem] sm:[--lead:13rem] border border-slate-200 bg-white print:max-h-none print:overflow-visible"
      role="region"
      aria-label={t('insights.heatMap.label')}
      tabIndex={0}
      data-testid="heat-map"
    >
      <table
        className="table-fixed border-separate border-spacing-0 text-sm"
        style={{ width: `calc(var(--lead) + ${(teams.length + 1) * COLUMN_WIDTH}px)` }}
        aria-colcount={teams.length + 2}
        onClick={open}
      >
        <caption className="sr-only">{t('insights.heatMap.caption')}</caption>
        <colgroup>
          <col className="w-[var(--lead)]" />
        </colgroup>
        <thead className="sticky top-0 z-20 bg-white">
          <tr>
            <th
              ref={lead}
              scope="col"
              className="sticky start-0 z-30 w-[var(--lead)] border-b border-slate-200 bg-white px-3 py-2 text-start align-bottom text-xs font-semibold text-slate-700"
              aria-colindex={1}
            >
              {t('insights.heatMap.component')}
            </th>
            <th
              scope="col"
              className="border-b border-s border-slate-200 bg-slate-50 px-2 py-2 text-start align-bottom"
              style={{ width: COLUMN_WIDTH }}
              aria-colindex={2}
            >
              <span className="block text-xs font-semibold text-slate-900">{organisation}</span>
            </th>
            <Spacer columns={first} />
            {visible.map((team, index) => (
              <th
                key={team.id}
                scope="col"
                className="border-b border-s border-slate-200 px-2 py-2 text-start align-bottom"
                style={{ width: COLUMN_WIDTH }}
                aria-colindex={first + index + 3}
                data-testid="team-column"
              >
                <span className="block truncate text-xs font-semibold text-slate-900" title={team.name}>
                  {team.name}
                </span>
                <span className="block truncate text-xs text-slate-700">
                  {t(SHORT_LABELS[team.overallHealth])}
                  {team.change !== null && (
                    <span className={team.change < 0 ? 'text-red-800' : 'text-slate-700'}>
                      {' '}
                      {t('insights.points', {
                        change: formats().number(team.change, { signDisplay: 'exceptZero' }),
                      })}
                    </span>
                  )}
                </span>
              </th>
            ))}
            <Spacer columns={teams.length - last} />
          </tr>
        </thead>
        {data.rows.map((row) => (
          <tbody key={row.category}>
            <tr>
              <th
                scope="colgroup"
                colSpan={drawn}
                className="border-b border-slate-200 bg-slate-100 p-0 text-start"
              >
                <span className="sticky start-0 inline-block px-3 py-1.5 text-xs font-semibold tracking-wide text-slate-800 uppercase">
                  {row.category}
                </span>
              </th>
            </tr>
            {row.components.map((component) => {
              const pooled = data.organisation.cells[component.key];
              return (
                <tr key={component.key}>
                  <th
                    scope="row"
                    className="sticky start-0 z-10 border-b border-slate-200 bg-white px-3 py-1.5 text-start text-xs font-medium break-words text-slate-900"
                  >
                    {component.title}
                  </th>
                  <td className="border-b border-s border-slate-200 p-0">
                    {pooled ? (
                      <span
                        className={cn(CELL, TONES[describeCell(pooled).label])}
                        title={t('insights.cell.organisationTitle', {
                          component: component.title,
                          text: describeCell(pooled).text,
                        })}
                      >
                        <CellBody cell={pooled} />
                        <span className="sr-only">{describeCell(pooled).text}</span>
                      </span>
                    ) : (
                      <span className={cn(CELL, 'text-xs text-slate-600')}>
                        <span aria-hidden="true">—</span>
                        <span className="sr-only">{t('insights.cell.noTeam')}</span>
                      </span>
                    )}
                  </td>
                  <Spacer columns={first} />
                  {visible.map((team) => (
                    <td key={team.id} className="border-b border-s border-slate-200 p-0">
                      <TeamCell team={team} component={component} />
                    </td>
                  ))}
                  <Spacer columns={teams.length - last} />
                </tr>
              );
            })}
          </tbody>
        ))}
      </table>
    </div>
  );
}
