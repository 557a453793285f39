/**
 * Enough of XMLHttpRequest for the file transfers of src/services/uploads.ts: it records what is sent (method, URL,
 * headers, body) and lets the test answer, fail or abort it. Install it with
 * `FakeXMLHttpRequest.sent = []; vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest)`.
 */
export class FakeXMLHttpRequest extends EventTarget {
  /** Every transfer sent since the test began, oldest first. */
  static sent: FakeXMLHttpRequest[] = [];
  readonly upload = new EventTarget();
  withCredentials = true;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  statusText = '';
  responseText = '';
  responseHeaders: Record<string, string> = {};

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXMLHttpRequest.sent.push(this);
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }
  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  respond(status: number, statusText = '', responseText = '', responseHeaders: Record<string, string> = {}) {
    Object.assign(this, { status, statusText, responseText, responseHeaders });
    this.dispatchEvent(new Event('load'));
  }
}
