export interface ClientOptions {
  baseUrl: string;
  timeoutMs?: number;
}

export class ApiClient {
  constructor(private readonly opts: ClientOptions) {}

  async get<T>(path: string): Promise<T> {
    const res = await fetch(`${this.opts.baseUrl}${path}`, {
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
    });
    if (!res.ok) throw new Error(`GET ${path} -> ${res.status}`);
    return (await res.json()) as T;
  }
}
