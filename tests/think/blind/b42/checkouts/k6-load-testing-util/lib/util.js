export function pick(arr) {
  return arr[Math.floor(Math.random() * arr.length)];
}

export function envInt(value, fallback) {
  const n = parseInt(value, 10);
  return Number.isNaN(n) ? fallback : n;
}
