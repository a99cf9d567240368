export function kmhToMps(kmh: number): number {
  return kmh / 3.6;
}
