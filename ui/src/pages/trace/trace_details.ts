// The details pane under the timeline: what is selected, with every number the server
// knows about it (an event's stats and flows, a summary's count, an area's events by
// name, a timing mark's length).
import { el } from '../../format';
import { traceApi, type EventDetails, type Flow, type TraceSource, type TraceSummary, type TraceTracks } from './trace_api';
import { formatPs, shortName } from './trace_format';
import { trackLabel } from './trace_layout';
import type { Timeline, TimelineSelection } from './timeline';

export class DetailsPane {
  readonly root = el('div', { class: 'tv-details', 'aria-live': 'polite', id: 'tv-details' });
  private generation = 0;
  private readonly trackNames = new Map<number, string>();

  constructor(
    private readonly source: TraceSource,
    tracks: TraceTracks,
    private readonly timeline: () => Timeline | null,
  ) {
    for (const section of tracks.sections) {
      for (const track of section.tracks) {
        const prefix = tracks.hosts.length > 1 ? `${section.host} ` : '';
        this.trackNames.set(track.id, `${prefix}${section.name} › ${trackLabel(section, track)}`);
      }
    }
    this.showHelp();
  }

  showHelp(): void {
    this.generation++;
    this.root.dataset.kind = 'none';
    this.root.replaceChildren(
      el('div', { class: 'tv-details-empty' },
        el('div', { class: 'tv-details-title' }, 'Nothing selected'),
        el('div', {}, 'Click an event for its details, stats and flow arrows. Hatched boxes are runs of events shorter than a pixel: hover for their count, zoom in to see them.'),
        el('div', { class: 'tv-keys' },
          ...[
            ['W / S, wheel', 'zoom in / out'],
            ['A / D, drag', 'pan'],
            ['Shift + drag', 'select an area'],
            ['drag on the time axis, M', 'mark an interval (timing)'],
            ['F', 'fit the selection'],
            ['0', 'whole trace'],
            ['Esc', 'clear'],
          ].map(([key, what]) => el('span', {}, el('kbd', {}, key), ` ${what}`)),
        ),
      ),
    );
  }

  async show(selection: TimelineSelection | null): Promise<void> {
    if (!selection) {
      this.showHelp();
      return;
    }
    const generation = ++this.generation;
    this.root.dataset.kind = selection.kind;
    switch (selection.kind) {
      case 'event': {
        this.root.replaceChildren(el('div', { class: 'tv-details-loading' }, 'Loading event…'));
        try {
          const [details, flows] = await Promise.all([
            traceApi.event(this.source, selection.track, selection.event),
            traceApi.flows(this.source, selection.track, selection.event),
          ]);
          if (generation !== this.generation) return;
          this.timeline()?.setFlows(flows.flows);
          this.renderEvent(details, flows.flows);
        } catch (error) {
          if (generation !== this.generation) return;
          this.root.replaceChildren(el('div', { class: 'tv-error' }, (error as Error).message));
        }
        return;
      }
      case 'summary':
        this.root.replaceChildren(
          el('div', { class: 'tv-details-title' }, `${selection.count.toLocaleString('en-US')} event${selection.count === 1 ? '' : 's'} too short to draw at this zoom`),
          this.kv([
            ['Track', this.trackNames.get(selection.track) ?? ''],
            ['Depth', String(selection.depth)],
            ['Span', `${formatPs(selection.startPs)} – ${formatPs(selection.endPs)} (${formatPs(selection.endPs - selection.startPs)})`],
            ...(selection.count === 1 ? ([['Name', selection.name]] as [string, string][]) : []),
          ]),
          this.button('Zoom to them', () => this.timeline()?.fitSelection()),
        );
        return;
      case 'area':
        await this.renderArea(selection);
        return;
      case 'mark':
        this.root.replaceChildren(
          el('div', { class: 'tv-details-title' }, `Timing: ${formatPs(selection.endPs - selection.startPs, 5)}`),
          this.kv([
            ['From', formatPs(selection.startPs, 6)],
            ['To', formatPs(selection.endPs, 6)],
          ]),
        );
        return;
    }
  }

  private renderEvent(d: EventDetails, flows: Flow[]): void {
    const rows: [string, string | Node][] = [
      ['Track', `${d.section} › ${d.track_name}`],
      ['Start', formatPs(d.start_ps, 6)],
      ['Duration', formatPs(d.duration_ps, 6)],
      ['End', formatPs(d.start_ps + d.duration_ps, 6)],
      ['Depth', String(d.depth)],
    ];
    if (d.long_name) rows.splice(0, 0, ['Full name', d.long_name]);
    const stats = el('table', { class: 'tv-stats', 'data-role': 'stats' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Stat'), el('th', {}, 'Value'))),
      el('tbody', {}, ...d.stats.map((s) =>
        el('tr', {}, el('td', { class: 'tv-stat-name' }, s.name, s.metadata ? el('span', { class: 'tv-muted' }, ' (metadata)') : null), el('td', { class: 'tv-stat-value' }, String(s.value))),
      )),
    );
    const flowList = flows.length
      ? el('div', { class: 'tv-flows' },
          el('div', { class: 'tv-subtitle' }, `Flows (${flows.length})`),
          ...flows.slice(0, 50).map((f) => {
            const self = f.from.track === d.track && f.from.event === d.event;
            const other = self ? f.to : f.from;
            const link = el('button', { class: 'link-button tv-flow-link', title: other.name }, `${self ? '→' : '←'} ${shortName(other.name)}`);
            link.addEventListener('click', () => this.timeline()?.reveal(other.track, other.event, other.start_ps, other.end_ps, other.depth));
            return el('div', { class: 'tv-flow' }, link,
              el('span', { class: 'tv-muted' }, ` ${this.trackNames.get(other.track) ?? ''} · ${f.kind === 'correlation' ? `correlation ${f.id}` : `flow ${f.id}`} · ${formatPs(f.to.start_ps - f.from.start_ps)} ${self ? 'later' : 'earlier'}`));
          }))
      : null;
    this.root.replaceChildren(
      el('div', { class: 'tv-details-grid' },
        el('div', {},
          el('div', { class: 'tv-details-title tv-clamp', 'data-role': 'name', title: d.name }, d.name),
          this.kv(rows),
          flowList,
        ),
        el('div', {}, d.stats.length ? stats : el('div', { class: 'tv-muted' }, 'No stats on this event.')),
      ),
    );
  }

  // The area's events by name, counted by the server over every event of the range (not
  // only those drawn one by one at this zoom).
  private async renderArea(selection: Extract<TimelineSelection, { kind: 'area' }>): Promise<void> {
    const generation = this.generation;
    const timeline = this.timeline();
    const facts = (events: string, distinct: string): [string, string][] => [
      ['Interval', `${formatPs(selection.startPs, 6)} – ${formatPs(selection.endPs, 6)}`],
      ['Length', formatPs(selection.endPs - selection.startPs, 6)],
      ['Tracks', String(selection.tracks.length)],
      ['Events', events],
      ['Distinct names', distinct],
    ];
    const markButton = () => this.button('Mark this interval', () => timeline?.setMark(selection.startPs, selection.endPs));
    this.root.replaceChildren(
      el('div', { class: 'tv-details-grid' },
        el('div', {}, el('div', { class: 'tv-details-title' }, 'Counting the selected events…'), this.kv(facts('…', '…')), markButton()),
        el('div', { class: 'tv-muted' }, 'Summing every event of the range on the server…'),
      ),
    );
    if (!selection.tracks.length) {
      this.root.replaceChildren(el('div', { class: 'tv-muted' }, 'No track in the selected area.'));
      return;
    }
    let summary: TraceSummary;
    try {
      summary = await traceApi.summary(this.source, selection.startPs, selection.endPs, selection.tracks);
    } catch (error) {
      if (generation !== this.generation) return;
      this.root.replaceChildren(el('div', { class: 'tv-error' }, (error as Error).message));
      return;
    }
    if (generation !== this.generation) return;
    const table = el('table', { class: 'tv-stats', 'data-role': 'area-summary' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Name'), el('th', {}, 'Count'), el('th', {}, 'Total'), el('th', {}, 'Self'), el('th', {}, 'Average'))),
      el('tbody', {}, ...summary.names.slice(0, 50).map((v) =>
        el('tr', {}, el('td', { class: 'tv-stat-name', title: v.name }, v.name), el('td', {}, v.count.toLocaleString('en-US')), el('td', {}, formatPs(v.total_ps)), el('td', {}, formatPs(v.self_ps)), el('td', {}, formatPs(v.total_ps / v.count))),
      )),
    );
    const more = summary.distinct_names > 50 ? el('div', { class: 'tv-muted' }, `The 50 names with the most time of ${summary.distinct_names.toLocaleString('en-US')}.`) : null;
    this.root.replaceChildren(
      el('div', { class: 'tv-details-grid' },
        el('div', {},
          el('div', { class: 'tv-details-title', 'data-role': 'area-count' }, `${summary.events.toLocaleString('en-US')} events selected`),
          this.kv(facts(summary.events.toLocaleString('en-US'), summary.distinct_names.toLocaleString('en-US'))),
          markButton(),
        ),
        el('div', {}, summary.names.length ? table : el('div', { class: 'tv-muted' }, 'No events in this area.'), more),
      ),
    );
  }

  private kv(pairs: [string, string | Node][]): HTMLElement {
    const list = el('dl', { class: 'kv tv-kv' });
    for (const [key, value] of pairs) list.append(el('dt', {}, key), el('dd', {}, value));
    return list;
  }

  private button(label: string, onClick: () => void): HTMLElement {
    const b = el('button', { class: 'button' }, label);
    b.addEventListener('click', onClick);
    return b;
  }
}
