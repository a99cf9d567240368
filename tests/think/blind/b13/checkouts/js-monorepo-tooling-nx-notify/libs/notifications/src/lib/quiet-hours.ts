export interface QuietHours {
  startHour: number; // 0-23, local time
  endHour: number;
  timezone: string;
}

export function isWithinQuietHours(now: Date, qh: QuietHours): boolean {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hour12: false, timeZone: qh.timezone }).format(now),
  );
  return hour >= qh.startHour && hour < qh.endHour;
}
