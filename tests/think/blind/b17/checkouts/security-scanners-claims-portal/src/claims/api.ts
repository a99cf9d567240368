export async function fetchClaim(id: string) {
  const res = await fetch(`/api/claims/${encodeURIComponent(id)}`);
  if (!res.ok) throw new Error(`claim ${id}: ${res.status}`);
  return res.json();
}
