import type { Language } from '@pulsecheck/shared/i18n/languages';
import { WORKED_MESSAGES } from '@pulsecheck/shared/action-items/worked';
import type { LoopInsights, TrendLine, TrendPoint } from '@pulsecheck/shared/loops/contract';
import { useParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { StateCard } from '@/components/ui/state-card';
import { TableScroll } from '@/components/ui/table-scroll';
import { formatDate } from '@/lib/dates';
import { formats, say, t, tRich } from '@/lib/i18n';
import { ShownIn, ShownInNote } from './shown-in';
import { percentText } from './format';
import { useLiveLoop, useLoopInsights } from './api';
import { LoopHeader, LoopLoadFailed } from './loop-header';
import { signed } from './loop-results-page';
import { TrendChart, type TrendSeries } from './trend-chart';

type Figure = {
  /** Which figure: its name in table columns, and within a sentence, are the catalogue's. */
  id: 'scale' | 'enps' | 'participation';
  name: string;
  min: number;
  max: number;
  value: (value: number) => string;
  /** A change or its margin, without its sign: '0.4' (one decimal), '12 points'. */
  size: (value: number) => string;
};

const ONE_DECIMAL = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
const points = (value: number) => t('loopInsights.points', { count: Math.round(Math.abs(value)) });

/** A change with its sign and its 95% margin: '+0.4 (± 0.3)', '−12 points (± 9 points)'. */
function changeText(change: { change: number; margin: number }, figure: Figure) {
  const sign = change.change > 0 ? '+' : change.change < 0 ? '−' : '';
  return t('loopInsights.change', {
    sign,
    size: figure.size(change.change),
    margin: figure.size(change.margin),
  });
}

/** The figures (a function: the catalogue is loaded after this module). */
const figures = () =>
  ({
    scale: {
      id: 'scale',
      name: t('loopInsights.mean'),
      min: 1,
      max: 5,
      value: (v) => formats().number(v, ONE_DECIMAL),
      size: (v) => formats().number(Math.abs(v), ONE_DECIMAL),
    },
    enps: { id: 'enps', name: t('loopInsights.enps'), min: -100, max: 100, value: signed, size: points },
    participation: {
      id: 'participation',
      name: t('loopInsights.responseRate'),
      min: 0,
      max: 100,
      value: percentText,
      size: points,
    },
  }) satisfies Record<string, Figure>;

const stateText = (state: TrendPoint['state']) =>
  state === 'collecting'
    ? t('loopInsights.stillOpen')
    : state === 'below-threshold'
      ? t('loopInsights.tooFew')
      : '';

/** /admin/loop-insights/{loopId}/overview: each question's trend, the eNPS and participation across rounds. */
export function LoopInsightsPage() {
  const { loopId = '' } = useParams();
  const insights = useLoopInsights(loopId);
  useLiveLoop(loopId);
  if (insights.isPending) return <Spinner label={t('loopInsights.loading')} className="py-16" />;
  if (insights.isError) {
    return (
      <LoopLoadFailed
        error={insights.error}
        title={t('loopInsights.loadFailed')}
        onRetry={() => void insights.refetch()}
      />
    );
  }

  return <Insights data={insights.data} />;
}

function Insights({ data }: { data: LoopInsights }) {
  const rounds = data.participation.map((point) => point.number);
  const scaleLines = data.lines.filter((line) => line.kind === 'scale');
  const current = scaleLines.filter((line) => line.current);
  const retired = scaleLines.filter((line) => !line.current);
  const FIGURES = figures();
  return (
    <div className="flex flex-col gap-6">
      <LoopHeader loop={data.loop} />
      {rounds.length === 0 ? (
        <StateCard title={t('loopInsights.noRounds')} message={t('loopInsights.noRoundsHint')} />
      ) : (
        <>
          <p className="text-sm text-slate-600">{say(data.method)}</p>
          {data.actionsWorked.asked > 0 && <ActionsWorked figures={data.actionsWorked} />}
          <TrendCard
            title={t('loopInsights.participation')}
            description={t('loopInsights.participationHint')}
            figure={FIGURES.participation}
            rounds={rounds}
            lines={[
              { id: 'participation', label: t('loopInsights.responseRate'), points: data.participation },
            ]}
            columns={(point) => [
              'audience' in point
                ? t('loopInsights.answersOf', { answers: point.answers, audience: point.audience ?? 0 })
                : formats().number(point.answers),
            ]}
            extraHeaders={[t('loopInsights.answered')]}
          />
          {data.enps.length > 0 && (
            <TrendCard
              title={t('loopInsights.enps')}
              description={t('loopInsights.enpsHint')}
              figure={FIGURES.enps}
              rounds={rounds}
              lines={data.enps.map((line) => ({ id: line.id, label: lineLabel(line), points: line.points }))}
            />
          )}
          {current.map((line) => (
            <TrendCard
              key={line.id}
              title={line.text}
              shownIn={line.shownIn}
              description={t('loopInsights.scaleHint', {
                low: line.lowLabel ?? '',
                high: line.highLabel ?? '',
              })}
              figure={FIGURES.scale}
              rounds={rounds}
              lines={[{ id: line.id, label: line.text, points: line.points }]}
            />
          ))}
          {retired.length > 0 && (
            <section aria-labelledby="earlier-wordings" className="flex flex-col gap-4">
              <div>
                <h2 id="earlier-wordings" className="text-lg font-semibold text-slate-900">
                  {t('loopInsights.earlierWordings')}
                </h2>
                <p className="text-sm text-slate-600">{t('loopInsights.earlierWordingsHint')}</p>
              </div>
              {retired.map((line) => (
                <TrendCard
                  key={line.id}
                  title={line.text}
                  shownIn={line.shownIn}
                  description={t('loopInsights.retiredHint', {
                    low: line.lowLabel ?? '',
                    high: line.highLabel ?? '',
                  })}
                  figure={FIGURES.scale}
                  rounds={rounds}
                  lines={[{ id: line.id, label: line.text, points: line.points }]}
                />
              ))}
            </section>
          )}
          {current.length === 0 && data.enps.length === 0 && (
            <p className="text-sm text-slate-600">{t('loopInsights.onlyText')}</p>
          )}
        </>
      )}
    </div>
  );
}

const lineLabel = (line: TrendLine) =>
  line.current ? line.text : t('loopInsights.earlierWording', { text: line.text });

type Line = { id: string; label: string; points: TrendPoint[] };

/** The newest comparison over the lines, said in words above the chart. */
const latestChange = (lines: Line[]) =>
  lines
    .flatMap((line) => line.points)
    .filter((point) => point.change !== null)
    .sort((a, b) => b.number - a.number)[0];

function Verdict({ point, figure }: { point: TrendPoint; figure: Figure }) {
  if (!point.change) return <span className="text-slate-600">{say(point.label)}</span>;
  const { real, change } = point.change;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge tone={real ? (change > 0 ? 'green' : 'red') : 'neutral'}>{say(point.label)}</Badge>
      <span className="text-slate-700">{changeText(point.change, figure)}</span>
    </span>
  );
}

function TrendCard({
  title,
  description,
  figure,
  rounds,
  lines,
  columns,
  extraHeaders = [],
  shownIn = null,
}: {
  title: string;
  description: string;
  /** The language of `title` when it is not the reader's (no translation into it). */
  shownIn?: Language | null;
  figure: Figure;
  rounds: number[];
  lines: Line[];
  columns?: (point: TrendPoint & { audience?: number }) => string[];
  extraHeaders?: string[];
}) {
  const series: TrendSeries[] = lines.map((line) => ({
    id: line.id,
    label: line.label,
    points: line.points.map((point) => ({ round: point.number, value: point.value })),
  }));
  const latest = latestChange(lines);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">
          <ShownIn language={shownIn}>{title}</ShownIn>
        </CardTitle>
        <ShownInNote language={shownIn} />
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {latest?.change && (
          <p className="text-sm text-slate-800" data-testid="latest-verdict">
            {tRich('loopInsights.latest', {
              number: latest.number,
              verdict: <Verdict key="verdict" point={latest} figure={figure} />,
            })}
          </p>
        )}
        <TrendChart
          label={t('loopInsights.chartLabel', { title, figure: figure.id })}
          rounds={rounds}
          series={series}
          min={figure.min}
          max={figure.max}
          format={figure.value}
        />
        <TableScroll label={t('loopInsights.tableLabel', { title })}>
          <table className="w-full text-start text-sm">
            <caption className="sr-only">
              {t('loopInsights.tableCaption', { title, figure: figure.id })}
            </caption>
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                {lines.length > 1 && (
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t('loopInsights.wording')}
                  </th>
                )}
                <th scope="col" className="px-3 py-2 font-medium">
                  {t('loopInsights.round')}
                </th>
                {extraHeaders.map((header) => (
                  <th key={header} scope="col" className="px-3 py-2 font-medium">
                    {header}
                  </th>
                ))}
                {!columns && (
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t('loopInsights.answers')}
                  </th>
                )}
                <th scope="col" className="px-3 py-2 font-medium">
                  {figure.name}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t('loopInsights.changeColumn')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {lines.flatMap((line) =>
                line.points.map((point, index) => (
                  <tr key={`${line.id}-${point.roundId}`}>
                    {lines.length > 1 && <td className="px-3 py-2">{line.label}</td>}
                    <th scope="row" className="px-3 py-2 font-medium whitespace-nowrap text-slate-900">
                      {tRich('loopInsights.roundOpened', {
                        number: point.number,
                        date: formatDate(point.openedAt),
                        muted: (chunks) => <span className="font-normal text-slate-600">{chunks}</span>,
                      })}
                    </th>
                    {(columns?.(point) ?? [formats().number(point.answers)]).map((cell, index) => (
                      <td key={index} className="px-3 py-2">
                        {cell}
                      </td>
                    ))}
                    <td className="px-3 py-2">
                      {point.value === null ? stateText(point.state) : figure.value(point.value)}
                    </td>
                    <td className="px-3 py-2">
                      {index === 0 ? (
                        <span className="text-slate-600">{t('loopInsights.firstOfLine')}</span>
                      ) : (
                        <Verdict point={point} figure={figure} />
                      )}
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </TableScroll>
      </CardContent>
    </Card>
  );
}

/**
 * 'Actions that worked' for the loop's follow-ups (issue 33 item 5, decision 0019): the actions its closed rounds
 * asked about and the share of counted answers 'Yes' or 'Partly' (only questions released by the round's rule count).
 */
function ActionsWorked({ figures }: { figures: LoopInsights['actionsWorked'] }) {
  return (
    <Card role="article" aria-labelledby="actions-worked-title" data-testid="loop-actions-worked">
      <CardHeader>
        <CardTitle id="actions-worked-title" className="text-base">
          {say(WORKED_MESSAGES.title)}
        </CardTitle>
        <CardDescription>{say(WORKED_MESSAGES.loopNote)}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-3">
          <div className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">{say(WORKED_MESSAGES.asked)}</dt>
            <dd className="font-semibold text-slate-900">{figures.asked}</dd>
          </div>
          <div className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">{say(WORKED_MESSAGES.answersCounted)}</dt>
            <dd className="font-semibold text-slate-900">{figures.answered}</dd>
          </div>
          <div className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">{say(WORKED_MESSAGES.worked)}</dt>
            <dd className="font-semibold text-slate-900">
              {figures.workedShare === null ? say(WORKED_MESSAGES.tooFew) : percentText(figures.workedShare)}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
