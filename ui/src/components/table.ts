// A sortable, filterable table: click a header to sort by it (again to reverse), type in
// the filter box to keep rows whose name matches. Long tables show the first rows and a
// "show all" button. Rows can expand to show every field.
import type { Row } from '../api';
import { el, formatCell, humanize } from '../format';

export interface ColumnSpec {
  id: string;
  label?: string;
  type?: 'string' | 'int' | 'double' | 'bool';
  // Custom cell content; the sort still uses the raw value.
  render?: (row: Row) => Node | string;
  className?: string;
}

export interface TableOptions {
  name: string; // data-table attribute, for tests and CSV
  columns: ColumnSpec[];
  rows: Row[];
  sort?: { column: string; descending: boolean };
  // Columns the filter box searches; none = no filter box.
  filterColumns?: string[];
  filterPlaceholder?: string;
  pageSize?: number;
  // Expanding a row shows this under it.
  expand?: (row: Row) => Node;
  emptyText?: string;
  toolbar?: Node[]; // extra controls next to the filter (e.g. Export as CSV)
}

function compare(a: unknown, b: unknown): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), 'en', { numeric: true, sensitivity: 'base' });
}

function inferType(rows: Row[], id: string): 'string' | 'int' | 'double' | 'bool' {
  for (const row of rows) {
    const v = row[id];
    if (v === null || v === undefined) continue;
    if (typeof v === 'boolean') return 'bool';
    if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'double';
    return 'string';
  }
  return 'string';
}

export function dataTable(options: TableOptions): HTMLElement {
  const columns = options.columns.map((c) => ({ ...c, type: c.type ?? inferType(options.rows, c.id), label: c.label ?? humanize(c.id) }));
  let sort = options.sort ?? null;
  let filter = '';
  let showAll = false;
  const pageSize = options.pageSize ?? 50;
  const expanded = new Set<Row>();

  const root = el('div', { class: 'table-wrap', 'data-table': options.name });
  const toolbar = el('div', { class: 'table-toolbar' });
  const count = el('span', { class: 'table-count' });
  let filterInput: HTMLInputElement | null = null;
  if (options.filterColumns && options.filterColumns.length) {
    filterInput = el('input', {
      type: 'search',
      class: 'table-filter',
      placeholder: options.filterPlaceholder ?? 'Filter by name',
      'aria-label': options.filterPlaceholder ?? 'Filter by name',
    });
    filterInput.addEventListener('input', () => {
      filter = filterInput!.value.trim().toLowerCase();
      render();
    });
    toolbar.append(filterInput);
  }
  toolbar.append(count);
  if (options.toolbar) toolbar.append(el('span', { class: 'table-toolbar-spacer' }), ...options.toolbar);
  root.append(toolbar);

  const table = el('table', { class: 'data-table' });
  const thead = el('thead');
  const headRow = el('tr');
  if (options.expand) headRow.append(el('th', { class: 'col-expand', 'aria-label': 'expand' }));
  for (const column of columns) {
    const th = el('th', { 'data-col': column.id, class: `sortable type-${column.type} ${column.className ?? ''}`, tabindex: '0', title: `Sort by ${column.label}` }, el('span', {}, column.label), el('span', { class: 'sort-mark' }));
    const activate = () => {
      if (sort && sort.column === column.id) {
        sort = { column: column.id, descending: !sort.descending };
      } else {
        // Numbers sort largest first, text A to Z: what one usually wants first.
        sort = { column: column.id, descending: column.type !== 'string' };
      }
      render();
    };
    th.addEventListener('click', activate);
    th.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        activate();
      }
    });
    headRow.append(th);
  }
  thead.append(headRow);
  const tbody = el('tbody');
  table.append(thead, tbody);
  root.append(el('div', { class: 'table-scroll' }, table));
  const more = el('div', { class: 'table-more' });
  root.append(more);

  function visibleRows(): Row[] {
    let rows = options.rows;
    if (filter && options.filterColumns) {
      const keys = options.filterColumns;
      rows = rows.filter((r) => keys.some((k) => String(r[k] ?? '').toLowerCase().includes(filter)));
    }
    if (sort) {
      const { column, descending } = sort;
      rows = [...rows].sort((a, b) => {
        const c = compare(a[column], b[column]);
        // Missing values stay last in both directions.
        const missing = a[column] === null || a[column] === undefined || b[column] === null || b[column] === undefined;
        return descending && !missing ? -c : c;
      });
    }
    return rows;
  }

  function render(): void {
    for (const th of headRow.querySelectorAll<HTMLElement>('th[data-col]')) {
      const active = sort && th.dataset.col === sort.column;
      th.setAttribute('aria-sort', active ? (sort!.descending ? 'descending' : 'ascending') : 'none');
      th.querySelector('.sort-mark')!.textContent = active ? (sort!.descending ? '▼' : '▲') : '';
    }
    const rows = visibleRows();
    const shown = showAll ? rows : rows.slice(0, pageSize);
    tbody.replaceChildren();
    if (rows.length === 0) {
      const span = columns.length + (options.expand ? 1 : 0);
      tbody.append(el('tr', { class: 'empty-row' }, el('td', { colspan: String(span) }, filter ? `No rows match “${filter}”.` : options.emptyText ?? 'No rows.')));
    }
    for (const row of shown) {
      const tr = el('tr');
      if (options.expand) {
        const open = expanded.has(row);
        const button = el('button', { class: 'expand-button', 'aria-expanded': String(open), title: open ? 'Hide details' : 'Show details' }, open ? '▾' : '▸');
        button.addEventListener('click', () => {
          if (expanded.has(row)) expanded.delete(row);
          else expanded.add(row);
          render();
        });
        tr.append(el('td', { class: 'col-expand' }, button));
      }
      for (const column of columns) {
        const value = row[column.id];
        const content = column.render ? column.render(row) : formatCell(value, column.type, column.id);
        const td = el('td', { class: `type-${column.type} ${column.className ?? ''}` }, content);
        if (typeof content === 'string' && column.type === 'string') td.title = content;
        tr.append(td);
      }
      tbody.append(tr);
      if (options.expand && expanded.has(row)) {
        tbody.append(el('tr', { class: 'detail-row' }, el('td', { colspan: String(columns.length + 1) }, options.expand(row))));
      }
    }
    count.textContent = filter ? `${rows.length} of ${options.rows.length} rows` : `${options.rows.length} rows`;
    more.replaceChildren();
    if (rows.length > pageSize) {
      const toggle = el('button', { class: 'link-button' }, showAll ? `Show first ${pageSize}` : `Show all ${rows.length} rows`);
      toggle.addEventListener('click', () => {
        showAll = !showAll;
        render();
      });
      more.append(toggle);
    }
  }

  render();
  return root;
}
