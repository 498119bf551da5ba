// "Capture profile": record running programs that serve tensorflow.ProfilerService
// (stepscope::StartProfilerServer, tf.profiler.experimental.server.start,
// jax.profiler.start_server) into this logdir, through POST /api/capture
// (src/server/capture_route.h, the same client library as `stepscope capture`).
//
//   topbar.append(captureButton((run) => { /* reload runs, open `run` */ }));
import { el, formatBytes, formatCount } from '../format';
import './capture_dialog.css';

export interface CaptureWorker {
  address: string;
  host: string;
  ok: boolean;
  attempts: number;
  path: string;
  file_bytes: number;
  event_count: number;
  note: string;
  error: string;
}

export interface CaptureReply {
  run: string;
  succeeded: number;
  failed: number;
  workers: CaptureWorker[];
  error?: string;
}

export interface CaptureRequest {
  service_addresses: string;
  duration_ms: number;
  host_tracer_level: number;
  device_tracer_level: number;
  python_tracer_level: number;
  retries: number;
  run?: string;
}

// POSTs the request. Resolves with the reply for 200 (the capture ran: `succeeded` may be 0,
// the reply says why per worker); rejects with the server's message otherwise.
export async function postCapture(request: CaptureRequest): Promise<CaptureReply> {
  let response: Response;
  try {
    response = await fetch('/api/capture', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(request),
    });
  } catch {
    throw new Error('cannot reach the stepscope server (is `stepscope serve` still running?)');
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`the server sent something that is not JSON (HTTP ${response.status})`);
  }
  const reply = body as CaptureReply & { error?: string };
  if (response.status === 200 && Array.isArray(reply.workers)) return reply;
  throw new Error(reply && typeof reply.error === 'string' ? reply.error : `HTTP ${response.status}`);
}

function numberInput(id: string, value: number, min: number, max: number): HTMLInputElement {
  const input = el('input', { id, type: 'number', min: String(min), max: String(max), step: '1', value: String(value), required: '' }) as HTMLInputElement;
  return input;
}

function levelSelect(id: string, options: [number, string][], value: number): HTMLSelectElement {
  const select = el('select', { id }, ...options.map(([level, label]) => el('option', { value: String(level) }, `${level} – ${label}`))) as HTMLSelectElement;
  select.value = String(value);
  return select;
}

function row(label: string, control: HTMLElement, hint?: string): HTMLElement {
  return el('div', { class: 'capture-row' }, el('label', { for: control.id }, label), control, hint ? el('div', { class: 'capture-hint' }, hint) : null);
}

function resultList(reply: CaptureReply): HTMLElement {
  return el(
    'ul',
    { class: 'capture-results' },
    ...reply.workers.map((w) =>
      el(
        'li',
        { class: w.ok ? 'capture-ok' : 'capture-failed', 'data-address': w.address },
        el('span', { class: 'capture-address' }, w.address),
        w.ok
          ? el('span', {}, `captured — ${formatBytes(w.file_bytes)}${w.event_count ? `, ${formatCount(w.event_count)} events` : ''}${w.attempts > 1 ? `, ${w.attempts} attempts` : ''}`)
          : el('span', {}, `failed after ${w.attempts} attempt${w.attempts === 1 ? '' : 's'}: ${w.error}`),
      ),
    ),
  );
}

// Opens the dialog. `onCaptured(run)` is called when the user opens the captured run.
export function openCaptureDialog(onCaptured: (run: string) => void): HTMLDialogElement {
  const addresses = el('input', {
    id: 'capture-addresses', type: 'text', required: '', autocomplete: 'off', spellcheck: 'false',
    placeholder: 'grpc://10.0.0.1:6009,grpc://10.0.0.2:6009',
  }) as HTMLInputElement;
  const duration = numberInput('capture-duration', 2000, 1, 600000);
  const host = levelSelect('capture-host-level', [[0, 'off'], [1, 'user annotations and steps'], [2, '+ info (default)'], [3, '+ verbose']], 2);
  // On by default, as TensorBoard's dialog: a TensorFlow/JAX GPU worker asked for 0 records
  // no kernel (a worker without a device tracer says so in its warnings).
  const device = levelSelect('capture-device-level', [[0, 'off'], [1, 'on (default)']], 1);
  const python = levelSelect('capture-python-level', [[0, 'off (default)'], [1, 'on']], 0);
  const retries = numberInput('capture-retries', 3, 0, 100);
  const runName = el('input', { id: 'capture-run', type: 'text', autocomplete: 'off', placeholder: 'default: the current time' }) as HTMLInputElement;
  const status = el('div', { class: 'capture-status', role: 'status', 'aria-live': 'polite' });
  const submit = el('button', { type: 'submit', class: 'button primary', id: 'capture-submit' }, 'Capture') as HTMLButtonElement;
  const cancel = el('button', { type: 'button', class: 'button', id: 'capture-close' }, 'Close') as HTMLButtonElement;
  const form = el(
    'form',
    { class: 'capture-form', method: 'dialog' },
    el('h2', {}, 'Capture profile'),
    el('p', { class: 'capture-hint' }, 'Records running programs that started a profiler server (stepscope --profiler_port, TensorFlow or JAX) into this logdir.'),
    row('Profile service URL(s)', addresses, 'Comma-separated host:port, grpc:// optional'),
    row('Profiling duration (ms)', duration),
    row('Host trace level', host),
    row('Device trace level', device),
    row('Python trace level', python),
    row('Automatically retry', retries, 'times, when a worker is unreachable, busy, or records nothing'),
    row('Run name', runName),
    status,
    el('div', { class: 'capture-actions' }, cancel, submit),
  );
  const dialog = el('dialog', { class: 'capture-dialog', id: 'capture-dialog' }, form) as HTMLDialogElement;
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const request: CaptureRequest = {
      service_addresses: addresses.value.trim(),
      duration_ms: Number(duration.value),
      host_tracer_level: Number(host.value),
      device_tracer_level: Number(device.value),
      python_tracer_level: Number(python.value),
      retries: Number(retries.value),
    };
    if (runName.value.trim()) request.run = runName.value.trim();
    submit.disabled = true;
    status.className = 'capture-status busy';
    status.replaceChildren(`Capturing for ${formatCount(request.duration_ms)} ms…`);
    postCapture(request)
      .then((reply) => {
        status.className = `capture-status ${reply.succeeded > 0 ? 'done' : 'failed'}`;
        const summary = reply.succeeded > 0
          ? `${reply.succeeded} of ${reply.workers.length} captured into run ${reply.run}.`
          : reply.error ?? 'No worker was captured.';
        const children: (Node | string)[] = [el('div', {}, summary), resultList(reply)];
        if (reply.succeeded > 0) {
          const open = el('button', { type: 'button', class: 'button', id: 'capture-open' }, `Open ${reply.run}`);
          open.addEventListener('click', () => {
            dialog.close();
            onCaptured(reply.run);
          });
          children.push(open);
        }
        status.replaceChildren(...children);
      })
      .catch((error: Error) => {
        status.className = 'capture-status failed';
        status.replaceChildren(error.message);
      })
      .finally(() => {
        submit.disabled = false;
      });
  });
  document.body.append(dialog);
  dialog.showModal();
  addresses.focus();
  return dialog;
}

// The top-bar button that opens the dialog.
export function captureButton(onCaptured: (run: string) => void): HTMLElement {
  const button = el('button', { class: 'topbar-button', id: 'capture-button', title: 'Capture a profile from running programs' }, 'Capture profile');
  button.addEventListener('click', () => openCaptureDialog(onCaptured));
  return button;
}
