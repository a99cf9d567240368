import { request } from "undici";

export interface CheckResult {
  url: string;
  ok: boolean;
  status?: number;
  ms: number;
}

export async function checkHttp(url: string): Promise<CheckResult> {
  const started = Date.now();
  try {
    const res = await request(url, { method: "GET" });
    return { url, ok: res.statusCode < 400, status: res.statusCode, ms: Date.now() - started };
  } catch {
    return { url, ok: false, ms: Date.now() - started };
  }
}
