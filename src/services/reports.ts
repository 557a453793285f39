import { type Report, type ReportQuery, reportResponse } from '../contract/reports.ts';
import { api } from './http.ts';

/** The console's Reports (issue 28, beyond SPEC), under /api/v1/console/reports: staff only. */

export async function fetchReport(query: ReportQuery): Promise<Report> {
  const client = await api();
  return client.get('console/reports', { searchParams: { ...query } }).json(reportResponse);
}

/** The same figures as CSV, as the server writes them. */
export async function fetchReportCsv(query: ReportQuery): Promise<{ filename: string; text: string }> {
  const client = await api();
  const text = await client.get('console/reports.csv', { searchParams: { ...query }, headers: { accept: 'text/csv' } }).text();
  return { filename: `report-${query.group}-${query.from}-${query.to}.csv`, text };
}

/** Hands a text file to the browser's downloads. */
export function saveTextFile({ filename, text }: { filename: string; text: string }, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
