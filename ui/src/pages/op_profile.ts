// Op profile: the HLO ops of XLA programs as a tree - program > category > op > the ops
// fused into it - with each node's share of device time, the FLOP and bandwidth
// utilisation it achieved, and its wasted time (time x (1 - the better utilisation)).
// Children come ordered by wasted time, as the tool sends them; "time" re-sorts. "Include
// idle" adds the device's idle time as a node (TensorBoard's toggle).
import { card, diagnosticsList, emptyState } from '../components/cards';
import type { OpProfileNode as Node } from '../generated/tools';
import { el, formatCell, num } from '../format';
import { hloSummaryTiles } from './hlo_common';
import { csvButton } from './input_pipeline';
import { generatedColumns, resultOf, type PageContext } from './page';

// The figure columns of the declared table `op_profile`, after the level and the name. The
// tree itself shows where a node is (depth, program, category); the name's tooltip has its
// expression; occurrences and GFLOP are in the CSV.
const TREE_COLUMNS = ['level', 'name'];
const OMITTED = [...TREE_COLUMNS, 'depth', 'program', 'category', 'opcode', 'occurrences', 'gflops'];
const COLUMNS = generatedColumns('op_profile', 'op_profile', [], {}, OMITTED).map((c) => c.id) as (keyof Node)[];

function utilBar(value: unknown): HTMLElement {
  const pct = Math.max(0, Math.min(100, num(value)));
  const bar = el('span', { class: 'util-bar' }, el('span', { class: 'util-fill' }));
  (bar.firstChild as HTMLElement).style.width = `${pct}%`;
  (bar.firstChild as HTMLElement).style.background = pct >= 50 ? '#188038' : pct >= 10 ? '#f9ab00' : '#d93025';
  return el('span', { class: 'util' }, bar, el('span', { class: 'util-text' }, formatCell(value, 'double', 'percent')));
}

export function renderOpProfile(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'op_profile');
  const page = el('div', { class: 'page page-op-profile' });
  const includeIdle = ctx.hash.extra.include_idle === '1';
  const root = d.root;
  const declared = generatedColumns('op_profile', 'op_profile', []);
  const label = (id: string) => declared.find((c) => c.id === id)?.label ?? id;

  const idleToggle = el('label', { class: 'toggle' });
  const checkbox = el('input', { type: 'checkbox', 'data-control': 'include-idle' });
  checkbox.checked = includeIdle;
  checkbox.addEventListener('change', () => ctx.setExtra('include_idle', checkbox.checked ? '1' : null));
  idleToggle.append(checkbox, el('span', {}, 'Include idle time'));
  page.append(card('Summary', { id: 'summary', actions: [idleToggle] }, hloSummaryTiles(d.summary as unknown as Record<string, unknown>)));

  if (!root.children.length) {
    page.append(card('Op profile', {}, emptyState('No HLO op ran on a device', 'No device kernel of this profile names an HLO op (hlo_op stat).')));
    const notes = diagnosticsList(d.diagnostics);
    if (notes) page.append(notes);
    return page;
  }

  let sortBy: 'wasted' | 'time' = ctx.hash.extra.sort === 'time' ? 'time' : 'wasted';
  const expanded = new Set<string>();
  // Programs open by default: their categories show at once.
  root.children.forEach((p) => expanded.add(`/${p.name}`));
  const body = el('tbody', {});
  const ordered = (children: Node[]) =>
    sortBy === 'time' ? [...children].sort((a, b) => b.time_us - a.time_us) : children;

  const draw = () => {
    const rows: HTMLElement[] = [];
    const add = (node: Node, depth: number, path: string) => {
      const children = node.children;
      const open = expanded.has(path);
      const toggle = children.length
        ? el('button', { class: 'tree-toggle', 'aria-expanded': String(open), title: open ? 'Collapse' : 'Expand' }, open ? '▾' : '▸')
        : el('span', { class: 'tree-toggle leaf' }, '');
      toggle.addEventListener('click', () => {
        if (expanded.has(path)) expanded.delete(path);
        else expanded.add(path);
        draw();
      });
      const level = node.level;
      const nameCell = el('td', { class: 'name tree-name' }, toggle, el('span', { title: node.expression || node.name }, node.name));
      nameCell.style.paddingLeft = `${8 + depth * 18}px`;
      const cells = COLUMNS.map((id) => {
        if (level === 'fused_op' && id !== 'bound_by') {
          return el('td', { class: 'num muted' }, id === 'time_percent' ? `${formatCell(node.flops_share_percent, 'double', 'percent')} of FLOPs` : '');
        }
        if (id === 'flops_utilization_percent' || id === 'bandwidth_utilization_percent') return el('td', {}, utilBar(node[id]));
        return el('td', { class: id === 'bound_by' ? '' : 'num' }, formatCell(node[id], id === 'bound_by' ? 'string' : 'double', id));
      });
      const row = el('tr', { 'data-level': level, 'data-name': node.name }, el('td', { class: 'muted small' }, level.replace('_', ' ')), nameCell, ...cells);
      rows.push(row);
      if (open) ordered(children).forEach((child) => add(child, depth + 1, `${path}/${child.name}`));
    };
    ordered(root.children).forEach((child) => add(child, 0, `/${child.name}`));
    body.replaceChildren(...rows);
  };

  const sortSelect = el('select', { 'data-control': 'op-profile-sort' }, el('option', { value: 'wasted' }, 'Order by wasted time'), el('option', { value: 'time' }, 'Order by time'));
  sortSelect.value = sortBy;
  sortSelect.addEventListener('change', () => {
    sortBy = sortSelect.value === 'time' ? 'time' : 'wasted';
    draw();
  });
  const expandAll = el('button', { class: 'button' }, 'Expand all');
  expandAll.addEventListener('click', () => {
    const walk = (node: Node, path: string) => {
      expanded.add(path);
      node.children.forEach((c) => walk(c, `${path}/${c.name}`));
    };
    root.children.forEach((c) => walk(c, `/${c.name}`));
    draw();
  });
  draw();
  const table = el(
    'table',
    { class: 'data-table tree-table', 'data-table': 'op_profile' },
    el('thead', {}, el('tr', {}, ...TREE_COLUMNS.map((id) => el('th', {}, label(id))), ...COLUMNS.map((id) => el('th', {}, label(id))))),
    body,
  );
  page.append(
    card(
      'Op profile',
      {
        id: 'op-profile',
        subtitle: `Program > category > HLO op > fused ops. ${includeIdle ? 'Idle device time is a node and part of every percentage.' : 'Idle time excluded: percentages are of HLO op time.'}`,
        actions: [sortSelect, expandAll, csvButton(ctx, 'op_profile')],
      },
      el('div', { class: 'table-scroll' }, table),
    ),
  );
  const notes = diagnosticsList(d.diagnostics);
  if (notes) page.append(notes);
  return page;
}
