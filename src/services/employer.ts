import {
  type EmployerReport,
  type HoursEstimate,
  type ReportQuery,
  type ReportSettings,
  type UpdateHoursEstimateRequest,
  type UpdateReportSettingsRequest,
  employerReportResponse,
  hoursEstimateResponse,
  hoursEstimatesResponse,
  reportSettingsListResponse,
  reportSettingsResponse,
} from '../contract/employer.ts';
import { reportCsv } from '../contract/employerReport.rules.ts';
import { api } from './http.ts';

/**
 * The employer's report (issue 29 part 3) and what our admins keep for it (src/contract/employer.ts describes each
 * route). Failures are ky's HTTPError, read by the flows with serverMessage and fieldErrorsOf.
 */

export async function fetchEmployerReport(query: ReportQuery): Promise<EmployerReport> {
  const client = await api();
  return (await client.get('employer/report', { searchParams: { ...query } }).json(employerReportResponse)).report;
}

/** The report as a CSV file the browser saves, named after the company and period. */
export function saveReportCsv(report: EmployerReport): string {
  const name = `${report.company.name} ${report.period.label} report.csv`.replace(/[^\w .-]+/g, '').replace(/\s+/g, '-');
  const url = URL.createObjectURL(new Blob([reportCsv(report)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the address is freed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return name;
}

export async function listHoursEstimates(): Promise<HoursEstimate[]> {
  const client = await api();
  return (await client.get('admin/employer/hours_estimates').json(hoursEstimatesResponse)).estimates;
}

export async function updateHoursEstimate(categoryId: number, request: UpdateHoursEstimateRequest): Promise<HoursEstimate> {
  const client = await api();
  return (await client.put(`admin/employer/hours_estimates/${categoryId}`, { json: request }).json(hoursEstimateResponse)).estimate;
}

export async function listReportSettings(): Promise<ReportSettings[]> {
  const client = await api();
  return (await client.get('admin/employer/report_settings').json(reportSettingsListResponse)).settings;
}

export async function updateReportSettings(companyId: number, request: UpdateReportSettingsRequest): Promise<ReportSettings> {
  const client = await api();
  return (await client.put(`admin/employer/report_settings/${companyId}`, { json: request }).json(reportSettingsResponse)).settings;
}
