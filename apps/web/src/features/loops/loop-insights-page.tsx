import { WORKED_MESSAGES } from '@pulsecheck/shared/action-items/worked';
import type { LoopInsights, TrendLine, TrendPoint } from '@pulsecheck/shared/loops/contract';
import { useParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { StateCard } from '@/components/ui/state-card';
import { TableScroll } from '@/components/ui/table-scroll';
import { formatDate } from '@/lib/dates';
import { useLiveLoop, useLoopInsights } from './api';
import { LoopHeader, LoopLoadFailed } from './loop-header';
import { signed } from './loop-results-page';
import { TrendChart, type TrendSeries } from './trend-chart';

type Figure = {
  /** The figure's name in table columns, and within a sentence. */
  name: string;
  noun: string;
  min: number;
  max: number;
  value: (value: number) => string;
  /** Decimals of a change and its margin. */
  decimals: number;
  unit: string;
};

/** A change with its sign and its 95% margin: '+0.4 (± 0.3)', '−12 points (± 9 points)'. */
function changeText(change: { change: number; margin: number }, figure: Figure) {
  const size = (value: number) => `${Math.abs(value).toFixed(figure.decimals)}${figure.unit}`;
  const sign = change.change > 0 ? '+' : change.change < 0 ? '−' : '';
  return `${sign}${size(change.change)} (± ${size(change.margin)})`;
}

const FIGURES = {
  scale: { name: 'Mean', noun: 'mean', min: 1, max: 5, value: (v) => v.toFixed(1), decimals: 1, unit: '' },
  enps: { name: 'eNPS', noun: 'eNPS', min: -100, max: 100, value: signed, decimals: 0, unit: ' points' },
  participation: {
    name: 'Response rate',
    noun: 'response rate',
    min: 0,
    max: 100,
    value: (v) => `${v}%`,
    decimals: 0,
    unit: ' points',
  },
} satisfies Record<string, Figure>;

const STATE_TEXT = { collecting: 'Round still open', 'below-threshold': 'Too few responses', released: '' };

/** /admin/loop-insights/{loopId}/overview: each question's trend, the eNPS and participation across rounds. */
export function LoopInsightsPage() {
  const { loopId = '' } = useParams();
  const insights = useLoopInsights(loopId);
  useLiveLoop(loopId);
  if (insights.isPending) return <Spinner label="Loading insights..." className="py-16" />;
  if (insights.isError) {
    return (
      <LoopLoadFailed
        error={insights.error}
        title="Failed to load the insights"
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
  return (
    <div className="flex flex-col gap-6">
      <LoopHeader loop={data.loop} />
      {rounds.length === 0 ? (
        <StateCard title="No rounds yet" message="Trends appear here once rounds have opened." />
      ) : (
        <>
          <p className="text-sm text-slate-600">{data.method}</p>
          {data.actionsWorked.asked > 0 && <ActionsWorked figures={data.actionsWorked} />}
          <TrendCard
            title="Participation"
            description="The share of the audience that answered each round."
            figure={FIGURES.participation}
            rounds={rounds}
            lines={[{ id: 'participation', label: 'Response rate', points: data.participation }]}
            columns={(point) => [
              'audience' in point ? `${point.answers} of ${String(point.audience)}` : String(point.answers),
            ]}
            extraHeaders={['Answered']}
          />
          {data.enps.length > 0 && (
            <TrendCard
              title="eNPS"
              description="% promoters minus % detractors, from −100 to +100. A reworded question starts a new line."
              figure={FIGURES.enps}
              rounds={rounds}
              lines={data.enps.map((line) => ({ id: line.id, label: lineLabel(line), points: line.points }))}
            />
          )}
          {current.map((line) => (
            <TrendCard
              key={line.id}
              title={line.text}
              description={`Mean from 1 (${line.lowLabel ?? ''}) to 5 (${line.highLabel ?? ''}).`}
              figure={FIGURES.scale}
              rounds={rounds}
              lines={[{ id: line.id, label: line.text, points: line.points }]}
            />
          ))}
          {retired.length > 0 && (
            <section aria-labelledby="earlier-wordings" className="flex flex-col gap-4">
              <div>
                <h2 id="earlier-wordings" className="text-lg font-semibold text-slate-900">
                  Earlier wordings
                </h2>
                <p className="text-sm text-slate-600">
                  Questions that were reworded or removed keep their own trend, so answers to different
                  wording are never mixed.
                </p>
              </div>
              {retired.map((line) => (
                <TrendCard
                  key={line.id}
                  title={line.text}
                  description={`No longer asked. Mean from 1 (${line.lowLabel ?? ''}) to 5 (${line.highLabel ?? ''}).`}
                  figure={FIGURES.scale}
                  rounds={rounds}
                  lines={[{ id: line.id, label: line.text, points: line.points }]}
                />
              ))}
            </section>
          )}
          {current.length === 0 && data.enps.length === 0 && (
            <p className="text-sm text-slate-600">
              This loop asks only free-text questions, which have no trend: read them round by round in the
              results.
            </p>
          )}
        </>
      )}
    </div>
  );
}

const lineLabel = (line: TrendLine) => (line.current ? line.text : `${line.text} (earlier wording)`);

type Line = { id: string; label: string; points: TrendPoint[] };

/** The newest comparison over the lines, said in words above the chart. */
const latestChange = (lines: Line[]) =>
  lines
    .flatMap((line) => line.points)
    .filter((point) => point.change !== null)
    .sort((a, b) => b.number - a.number)[0];

function Verdict({ point, figure }: { point: TrendPoint; figure: Figure }) {
  if (!point.change) return <span className="text-slate-600">{point.label}</span>;
  const { real, change } = point.change;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge tone={real ? (change > 0 ? 'green' : 'red') : 'neutral'}>{point.label}</Badge>
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
}: {
  title: string;
  description: string;
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
        <CardTitle className="text-base">{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {latest?.change && (
          <p className="text-sm text-slate-800" data-testid="latest-verdict">
            Round {latest.number} against the round before: <Verdict point={latest} figure={figure} />
          </p>
        )}
        <TrendChart
          label={`${title}: ${figure.noun} by round (the table below lists the same numbers)`}
          rounds={rounds}
          series={series}
          min={figure.min}
          max={figure.max}
          format={figure.value}
        />
        <TableScroll label={`${title}: table`}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">
              {title}: {figure.noun} by round
            </caption>
            <thead className="bg-slate-50 text-slate-700">
              <tr>
                {lines.length > 1 && (
                  <th scope="col" className="px-3 py-2 font-medium">
                    Wording
                  </th>
                )}
                <th scope="col" className="px-3 py-2 font-medium">
                  Round
                </th>
                {extraHeaders.map((header) => (
                  <th key={header} scope="col" className="px-3 py-2 font-medium">
                    {header}
                  </th>
                ))}
                {!columns && (
                  <th scope="col" className="px-3 py-2 font-medium">
                    Answers
                  </th>
                )}
                <th scope="col" className="px-3 py-2 font-medium">
                  {figure.name}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Change from the round before
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {lines.flatMap((line) =>
                line.points.map((point, index) => (
                  <tr key={`${line.id}-${point.roundId}`}>
                    {lines.length > 1 && <td className="px-3 py-2">{line.label}</td>}
                    <th scope="row" className="px-3 py-2 font-medium whitespace-nowrap text-slate-900">
                      {point.number}{' '}
                      <span className="font-normal text-slate-600">({formatDate(point.openedAt)})</span>
                    </th>
                    {(columns?.(point) ?? [String(point.answers)]).map((cell, index) => (
                      <td key={index} className="px-3 py-2">
                        {cell}
                      </td>
                    ))}
                    <td className="px-3 py-2">
                      {point.value === null ? STATE_TEXT[point.state] : figure.value(point.value)}
                    </td>
                    <td className="px-3 py-2">
                      {index === 0 ? (
                        <span className="text-slate-600">First round of this line</span>
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
          {WORKED_MESSAGES.title}
        </CardTitle>
        <CardDescription>{WORKED_MESSAGES.loopNote}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-3">
          <div className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">{WORKED_MESSAGES.asked}</dt>
            <dd className="font-semibold text-slate-900">{figures.asked}</dd>
          </div>
          <div className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">{WORKED_MESSAGES.answersCounted}</dt>
            <dd className="font-semibold text-slate-900">{figures.answered}</dd>
          </div>
          <div className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">{WORKED_MESSAGES.worked}</dt>
            <dd className="font-semibold text-slate-900">
              {figures.workedShare === null ? WORKED_MESSAGES.tooFew : `${figures.workedShare}%`}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
