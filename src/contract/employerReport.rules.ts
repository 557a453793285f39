import type { EmployerReport, PublishedFigure } from './employer.ts';

/**
 * The report's figures as labelled lines: one wording for the screen's table, its CSV export and the monthly e-mail
 * (issue 29 part 3), so that no channel says more, or otherwise, than another.
 */

/** "42", "40–49", or "fewer than 10". */
export function figureText(figure: PublishedFigure): string {
  switch (figure.status) {
    case 'shown':
      return String(figure.value);
    case 'range':
      return `${figure.from}–${figure.to}`;
    case 'suppressed':
      return `fewer than ${figure.fewer_than}`;
  }
}

/** A figure withheld as a whole (a rate, a median): too few employees stand behind it. */
export function withheldText(threshold: number): string {
  return `not shown (fewer than ${threshold} employees)`;
}

export interface ReportLine {
  section: string;
  label: string;
  value: string;
}

export function reportLines(report: EmployerReport): ReportLine[] {
  const withheld = withheldText(report.threshold);
  const requests = report.requests_by_category;
  const lines: ReportLine[] = [
    { section: 'Employees', label: 'Eligible employees', value: report.eligible_employees === null ? 'not set' : String(report.eligible_employees) },
    { section: 'Employees', label: 'Signed-up employees', value: figureText(report.signed_up_employees) },
    ...report.monthly_active_employees.map(({ month, employees }) => ({
      section: 'Monthly active employees',
      label: month,
      value: figureText(employees),
    })),
    ...requests.categories.map(({ name, requests: count }) => ({ section: 'Requests by category', label: name, value: String(count) })),
    ...(requests.other === null ? [] : [{ section: 'Requests by category', label: 'Other', value: String(requests.other) }]),
    { section: 'Requests by category', label: 'Total', value: String(requests.total) },
    ...(requests.withheld_months.length > 0
      ? [{ section: 'Requests by category', label: 'Months left out', value: `${requests.withheld_months.join(' ')} (fewer than ${report.threshold} employees)` }]
      : []),
    {
      section: 'Service',
      label: 'Completion rate',
      value: report.completion ? `${report.completion.rate}% (${report.completion.completed} of ${report.completion.requests})` : withheld,
    },
    { section: 'Service', label: 'Median turnaround (hours)', value: report.median_turnaround_hours === null ? withheld : String(report.median_turnaround_hours) },
    {
      section: 'Service',
      label: 'Satisfaction (4 or 5 stars)',
      value: report.satisfaction ? `${report.satisfaction.share}% of ${report.satisfaction.ratings} ratings` : withheld,
    },
    { section: 'Service', label: 'Estimated hours saved', value: report.estimated_hours_saved === null ? withheld : String(report.estimated_hours_saved) },
    { section: 'Benefits', label: 'Benefit views', value: figureText(report.benefit_views) },
    { section: 'Benefits', label: 'Help requests', value: figureText(report.help_requests) },
  ];
  return lines;
}

function csvCell(text: string): string {
  // A cell starting with = + - @ is a formula to a spreadsheet: quoted and prefixed, it stays text.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) || safe !== text ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The report as CSV (RFC 4180, CRLF), one line per figure, with the company and period first. */
export function reportCsv(report: EmployerReport): string {
  const rows = [
    ['Company', report.company.name, ''],
    ['Period', report.period.label, ''],
    ['Privacy threshold', `${report.threshold} employees`, ''],
    ['Section', 'Figure', 'Value'],
    ...reportLines(report).map((line) => [line.section, line.label, line.value]),
  ];
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
