// embed.js: the <longpole-view> element, for documentation pages.
//
//   <script src="https://example.org/longpole/embed.js"></script>
//   <longpole-view src="build.log" view="timeline"><img src="build.svg" alt="…"></longpole-view>
//
// The element makes a sandboxed <iframe> of the app (the folder this script
// is served from, so any sub-path works) in embed mode: the frame's hash
// carries `embed=1`, this page's origin (the only one the frame will talk
// to) and the element's attributes (src, sha256, view, range, select,
// theme). When the app says `ready` to this window, the element hands it
// one end of a MessageChannel; requests and replies, and the app's events,
// go over that port (docs/embedding.md). Fallback content inside the
// element (a static SVG from `longpole export --to svg`) shows until then.
//
// The JS API: el.load(data, name), el.setView({view, range, select}),
// el.select(key), el.getSummary(), el.setWhatIf({select, speedup}),
// el.getWhatIf() and el.query(sql, {rows}) return Promises; the element fires `ready`, `loaded`,
// `selection`, `viewchanged`, `whatif`, `resized` and `error`
// events with the message's detail. Nothing from a log is ever written as
// markup here: the element only sizes the frame and forwards messages.
//
// It is a classic script, so that a page of another origin loads it from
// an app host that sends no CORS headers; it also runs as a module. If the
// frame never says `ready` (the app is not served there, or its host does
// not let this page frame it), the element says so in its fallback content.

const APP = appFolder();
const VERSION = 1;
const SANDBOX = 'allow-scripts allow-same-origin allow-downloads allow-popups allow-popups-to-escape-sandbox';
const EVENTS = { selection: 'selection', viewChanged: 'viewchanged', whatIf: 'whatif', resized: 'resized', error: 'error', loaded: 'loaded' };

/** The folder the app is served from: this script's own. A classic script
 * knows itself (`document.currentScript`); as a module it is found among
 * the page's scripts by its name. */
function appFolder() {
  const own = document.currentScript?.src
    ?? [...document.querySelectorAll('script[src]')].map((s) => s.src).reverse().find((src) => /\/embed\.js([?#].*)?$/.test(src));
  return new URL('./', own ?? document.baseURI);
}

/** Seconds to wait for the frame's `ready` before saying it did not come. */
const WAIT_S = 20;

/** An error of the protocol: its `code` says which (docs/embedding.md);
 * also `customElements.get('longpole-view').LongpoleError`. */
class LongpoleError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'LongpoleError';
    this.code = code;
  }
}

const words = (value) => (value ?? '').split(/\s+/).filter(Boolean);

class LongpoleView extends HTMLElement {
  static observedAttributes = ['src', 'sha256', 'view', 'range', 'select', 'height', 'theme'];
  static LongpoleError = LongpoleError;

  #frame = null;
  #port = null;
  #next = 1;
  #pending = new Map();
  #queue = [];
  #listener = null;
  #silence = null;

  connectedCallback() {
    if (!this.style.display) this.style.display = 'block';
    this.#build();
  }

  disconnectedCallback() {
    this.#teardown(new LongpoleError('detached', 'the element was taken out of the page'));
  }

  attributeChangedCallback(name, old, value) {
    if (!this.#frame || old === value) return;
    if (name === 'height') {
      this.#size(null);
    } else if (['view', 'range', 'select'].includes(name) && this.#port) {
      const change = {};
      if (name === 'view' && value) change.view = value;
      if (name === 'range') change.range = value ? value.split(',').map((t) => t.trim()) : 'all';
      if (name === 'select' && value) change.select = value;
      this.setView(change).catch((e) => this.#emit('error', { code: e.code ?? 'bad-request', message: e.message }));
    } else {
      this.#build();
    }
  }

  /** Reads `data` (a File, Blob, ArrayBuffer or typed array, named `name`;
   * an array of Files or of {data, name}; or URL strings, set as `src`) as
   * if it were dropped on the app. Resolves with the run's summary. */
  load(data, name) {
    const urls = typeof data === 'string' ? [data] : Array.isArray(data) && data.every((d) => typeof d === 'string') ? data : null;
    if (urls) {
      const done = new Promise((resolve, reject) => {
        const off = () => {
          this.removeEventListener('loaded', ok);
          this.removeEventListener('error', bad);
        };
        const ok = (e) => { off(); resolve(e.detail); };
        const bad = (e) => { off(); reject(new LongpoleError(e.detail.code, e.detail.message)); };
        this.addEventListener('loaded', ok);
        this.addEventListener('error', bad);
      });
      this.setAttribute('src', urls.join(' '));
      return done;
    }
    const list = Array.isArray(data) ? data : [data instanceof Blob ? { data, name: name ?? data.name } : { data, name }];
    const files = list.map((f) => (f instanceof Blob ? { data: f, name: f.name } : { data: f.data, name: f.name }));
    for (const f of files) {
      if (typeof f.name !== 'string' || !f.name) return Promise.reject(new LongpoleError('bad-file', 'every file needs a name'));
    }
    return this.#request('load', { files });
  }

  /** Shows a view (`timeline`, `graph`, `flame`, `summary`, `table NAME`),
   * a time window (`range: [start, end]` in ns, as strings of digits, or
   * `'all'`) and a task
   * (`select`: its key); what is left out stays. */
  setView(change) {
    return this.#request('setView', change ?? {});
  }

  /** Selects the task `key` names: its uid, or `{uid, start, lane}`; null for none. */
  select(key) {
    return this.#request('select', { key: key ?? null });
  }

  /** The headline numbers of the run shown, as the app computes them. */
  getSummary() {
    return this.#request('getSummary', {});
  }

  /** The what-if: the task `select` names (or the one selected) made
   * `speedup` percent faster (0 to 100), the run replayed in the frame;
   * its `whatif` event says the new wall time. */
  setWhatIf(change) {
    return this.#request('setWhatIf', change ?? {});
  }

  /** The what-if shown: `{key, speedup, wall_ms, what_if_wall_ms, saved_ms, …_ns}`. */
  getWhatIf() {
    return this.#request('getWhatIf', {});
  }

  query(sql, options) {
    return this.#request('query', { sql, rows: options?.rows });
  }

  #hash() {
    const enc = encodeURIComponent;
    const parts = ['embed=1', `origin=${enc(location.origin)}`];
    for (const src of words(this.getAttribute('src'))) parts.push(`src=${enc(new URL(src, document.baseURI).href)}`);
    for (const sha of words(this.getAttribute('sha256'))) parts.push(`sha256=${enc(sha)}`);
    for (const key of ['view', 'range', 'select', 'theme']) {
      const value = this.getAttribute(key);
      if (value) parts.push(`${key}=${enc(value)}`);
    }
    return parts.join('&');
  }

  #build() {
    this.#teardown(null);
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', SANDBOX);
    frame.title = this.getAttribute('title') || 'longpole';
    frame.style.border = '0';
    frame.style.width = '100%';
    frame.style.display = 'block';
    frame.style.height = '0';
    frame.src = new URL(`#${this.#hash()}`, APP).href;
    this.#listener = (e) => {
      const d = e.data;
      if (e.source !== frame.contentWindow || e.origin !== APP.origin || d?.longpole !== VERSION || d.type !== 'ready') return;
      this.#connect(frame);
    };
    window.addEventListener('message', this.#listener);
    this.#frame = frame;
    this.append(frame);
    const wait = Number(this.getAttribute('timeout') ?? WAIT_S);
    this.#silence = setTimeout(() => this.#unanswered(), (Number.isFinite(wait) && wait > 0 ? wait : WAIT_S) * 1000);
  }

  /** The frame never said `ready`: the fallback content says why, as text. */
  #unanswered() {
    this.#silence = null;
    const why = `longpole did not answer from ${APP.href}: the app is not served there, or its host does not let ${location.origin} frame it (its Content-Security-Policy frame-ancestors).`;
    const note = document.createElement('p');
    note.className = 'longpole-unanswered';
    note.setAttribute('role', 'status');
    note.textContent = why;
    this.insertBefore(note, this.#frame);
    this.#emit('error', { code: 'no-answer', message: why });
  }

  #connect(frame) {
    clearTimeout(this.#silence);
    this.#silence = null;
    if (this.#port) this.#port.close();
    const channel = new MessageChannel();
    this.#port = channel.port1;
    this.#port.onmessage = (e) => this.#receive(e.data);
    frame.contentWindow.postMessage({ longpole: VERSION, type: 'connect' }, APP.origin, [channel.port2]);
    // The frame replaces the fallback content.
    for (const child of [...this.childNodes]) if (child !== frame) child.remove();
    this.#size(null);
    for (const message of this.#queue.splice(0)) this.#port.postMessage(message);
    this.#emit('ready', {});
  }

  #receive(d) {
    if (d?.longpole !== VERSION) return;
    if (typeof d.id === 'number') {
      const waiting = this.#pending.get(d.id);
      if (!waiting) return;
      this.#pending.delete(d.id);
      if (d.ok) waiting.resolve(d.result);
      else waiting.reject(new LongpoleError(d.error?.code ?? 'unknown', d.error?.message ?? 'the app gave no reason'));
    } else if (d.event in EVENTS) {
      if (d.event === 'resized') this.#size(d.detail.height);
      this.#emit(EVENTS[d.event], d.detail);
    }
  }

  #size(height) {
    const fixed = this.getAttribute('height');
    if (fixed) this.#frame.style.height = /^\d+$/.test(fixed) ? `${fixed}px` : fixed;
    else if (height !== null) this.#frame.style.height = `${Math.ceil(height)}px`;
    else if (this.#frame.style.height === '0px' || this.#frame.style.height === '0') this.#frame.style.height = '160px';
  }

  #request(type, params) {
    const id = this.#next++;
    const message = { ...params, longpole: VERSION, id, type };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#port) this.#port.postMessage(message);
      else this.#queue.push(message);
    });
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  #teardown(reason) {
    clearTimeout(this.#silence);
    this.#silence = null;
    if (this.#listener) window.removeEventListener('message', this.#listener);
    this.#listener = null;
    this.#port?.close();
    this.#port = null;
    this.#frame?.remove();
    this.#frame = null;
    // Requests sent to the old frame get no answer: say so. Queued ones
    // go to the new frame, unless the element is gone.
    const queued = new Set(reason ? [] : this.#queue.map((m) => m.id));
    for (const [id, { reject }] of this.#pending) {
      if (queued.has(id)) continue;
      reject(reason ?? new LongpoleError('reloaded', 'the frame was made again (its src or theme changed) before it answered'));
      this.#pending.delete(id);
    }
    if (reason) this.#queue.length = 0;
  }
}

if (!customElements.get('longpole-view')) customElements.define('longpole-view', LongpoleView);
