import { useEffect, useRef } from 'react';
import { usePrefersReducedMotion } from './reducedMotion.ts';
import './BarChart.css';

export interface BarChartProps {
  /** What the chart shows, read by screen readers (the figures themselves are in the table the screen gives beside it). */
  label: string;
  labels: readonly string[];
  /** Null: a value withheld; drawn as no bar. */
  values: ReadonlyArray<number | null>;
  /** The axis's unit, e.g. "requests". */
  unit: string;
  className?: string;
}

/**
 * A bar chart drawn by Chart.js, which this module loads only when a chart is first shown (the one screen with charts
 * pays for it; DESIGN: one maintained chart library, lazily). Only the controllers and elements of a bar chart are
 * registered. The canvas is an image with a name: the figures are in the screen's own table for every reader.
 */
export function BarChart({ label, labels, values, unit, className }: BarChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const reducedMotion = usePrefersReducedMotion();
  // Drawn again only when the figures change, not on every render of the screen.
  const figures = JSON.stringify([labels, values, unit]);
  useEffect(() => {
    const [chartLabels, chartValues, chartUnit] = JSON.parse(figures) as [string[], Array<number | null>, string];
    let chart: { destroy(): void } | null = null;
    let cancelled = false;
    void import('chart.js').then(({ Chart, BarController, BarElement, CategoryScale, LinearScale, Tooltip }) => {
      if (cancelled || !canvas.current) return;
      Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);
      const color = getComputedStyle(canvas.current).getPropertyValue('--lc-color-primary').trim() || '#1d4ed8';
      chart = new Chart(canvas.current, {
        type: 'bar',
        data: { labels: chartLabels, datasets: [{ label: chartUnit, data: chartValues, backgroundColor: color }] },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: reducedMotion ? false : undefined,
          scales: { y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: chartUnit } } },
        },
      });
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [figures, reducedMotion]);
  return (
    <div className={className ? `lc-bar-chart ${className}` : 'lc-bar-chart'}>
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
