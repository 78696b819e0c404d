// A minimal oneM2M HTTP client for the tests: the same calls go to the embedded CSE and to ACME.
export interface M2mResponse {
  status: number;
  /** X-M2M-RSC as a number (NaN when missing) */
  rsc: number;
  body: any;
  headers: Headers;
}

export interface RawRequest {
  method: string;
  /** path and query, e.g. "/Mobius/ae?fu=1" */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

let seq = 0;

export class M2mClient {
  constructor(
    /** http://host:port */
    readonly url: string,
    readonly originator: string,
    readonly rvi = "3",
  ) {}

  as(originator: string): M2mClient {
    return new M2mClient(this.url, originator, this.rvi);
  }

  async raw(r: RawRequest): Promise<M2mResponse> {
    const res = await fetch(this.url + r.path, {
      method: r.method,
      headers: r.headers,
      body: r.body,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let body: unknown = text;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        // left as text for the assertion to show
      }
    }
    return { status: res.status, rsc: Number(res.headers.get("x-m2m-rsc") ?? NaN), body, headers: res.headers };
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      "X-M2M-RI": `req-${++seq}`,
      "X-M2M-Origin": this.originator,
      "X-M2M-RVI": this.rvi,
      Accept: "application/json",
      ...extra,
    };
  }

  create(path: string, ty: number, body: unknown): Promise<M2mResponse> {
    return this.raw({
      method: "POST",
      path,
      headers: this.headers({ "Content-Type": `application/json;ty=${ty}` }),
      body: JSON.stringify(body),
    });
  }

  retrieve(path: string): Promise<M2mResponse> {
    return this.raw({ method: "GET", path, headers: this.headers() });
  }

  update(path: string, body: unknown): Promise<M2mResponse> {
    return this.raw({
      method: "PUT",
      path,
      headers: this.headers({ "Content-Type": "application/json" }),
      body: JSON.stringify(body),
    });
  }

  delete(path: string): Promise<M2mResponse> {
    return this.raw({ method: "DELETE", path, headers: this.headers() });
  }
}
