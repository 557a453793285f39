import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';
import type { ReportRow } from '../../../contract/reports.ts';
import { formatShare } from './reportFormat.ts';

// Only what the bar charts use, so that the chunk carries no other controller.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

const SCORE_COLOURS = ['#b42318', '#dc6803', '#a3a3a3', '#4e9a51', '#1f7a3a'];

function tokenColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** A bar chart drawn on its canvas while mounted; a browser without a 2D canvas shows the tables only. */
function BarChart({ label, config }: { label: string; config: () => ConstructorParameters<typeof Chart<'bar'>>[1] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return undefined;
    const chart = new Chart(context, config());
    return () => chart.destroy();
  }, [config]);
  return (
    <figure className="lc-reports__chart">
      <canvas ref={canvas} role="img" aria-label={label} />
    </figure>
  );
}

/** The charts of a report: satisfaction and response rate per group, and each group's 1-5 distribution. */
export default function ReportCharts({ rows, groupLabel }: { rows: ReportRow[]; groupLabel: string }) {
  const labels = rows.map((row) => row.label);
  const shares = (pick: (row: ReportRow) => number | null) => rows.map((row) => (pick(row) === null ? null : Math.round(pick(row)! * 100)));
  const satisfactionLabel = `Satisfaction and response rate by ${groupLabel.toLowerCase()}: ${rows
    .map((row) => `${row.label} ${formatShare(row.satisfaction)} satisfied, ${formatShare(row.response_rate)} rated`)
    .join('; ')}`;
  const distributionLabel = `Ratings 1 to 5 by ${groupLabel.toLowerCase()}: ${rows.map((row) => `${row.label} ${row.distribution.join(', ')}`).join('; ')}`;
  return (
    <div className="lc-reports__charts">
      <BarChart
        label={satisfactionLabel}
        config={() => ({
          type: 'bar',
          data: {
            labels,
            datasets: [
              { label: 'Satisfaction (%)', data: shares((row) => row.satisfaction), backgroundColor: tokenColour('--lc-color-primary', '#2b5fd9') },
              { label: 'Response rate (%)', data: shares((row) => row.response_rate), backgroundColor: tokenColour('--lc-color-text-muted', '#6b7280') },
            ],
          },
          options: { responsive: true, maintainAspectRatio: false, animation: false, scales: { y: { min: 0, max: 100 } } },
        })}
      />
      <BarChart
        label={distributionLabel}
        config={() => ({
          type: 'bar',
          data: {
            labels,
            datasets: [1, 2, 3, 4, 5].map((score) => ({
              label: `${score}`,
              data: rows.map((row) => row.distribution[score - 1]),
              backgroundColor: SCORE_COLOURS[score - 1],
            })),
          },
          options: {
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
          },
        })}
      />
    </div>
  );
}
