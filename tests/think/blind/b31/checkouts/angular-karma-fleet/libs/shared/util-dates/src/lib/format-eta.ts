const MINUTE = 60;

export function formatEta(seconds: number): string {
  const minutes = Math.floor(seconds / MINUTE);
  if (minutes < 60) {
    return `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}
