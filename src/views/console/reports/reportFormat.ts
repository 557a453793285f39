/** How the Reports screen writes its figures: shares as whole percentages, business minutes as hours and minutes. */

export function formatShare(share: number | null): string {
  return share === null ? '–' : `${Math.round(share * 100)}%`;
}

export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return '–';
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  return hours === 0 ? `${rest} min` : rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
