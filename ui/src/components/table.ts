// A sortable, filterable table: click a header to sort by it (again to reverse), type in
// the filter box to keep rows whose name matches. Long tables show the first rows and a
// "show all" button; showing all of a long table renders only the rows in view (and a
// margin) inside a scroll box, so a table of any length draws as fast as a short one,
// while sorting and filtering work on every row. Rows can expand to show every field.
// Text cells too long for a column show their head and tail (components/elide.ts), the
// full text on hover.
import type { Row } from '../api';
import { el, formatCell, humanize } from '../format';
import { distinctElided } from './elide';

export interface ColumnSpec {
  id: string;
  label?: string;
  type?: 'string' | 'int' | 'double' | 'bool';
  // Custom cell content; the sort still uses the raw value.
  render?: (row: Row) => Node | string;
  className?: string;
  // Text cells longer than this show their head and tail; default NAME_CHARS for 'name'
  // columns, TEXT_CHARS for other text.
  maxChars?: number;
  // Shown for an empty text ("(no op)"): an empty cell reads as missing data.
  blank?: string;
  // What the column measures (the tool's declaration), in the header's tooltip.
  description?: string;
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

// Characters a text cell shows before its middle is elided: names (monospace) and other text.
const NAME_CHARS = 44;
const TEXT_CHARS = 32;
// Showing all rows of a table longer than this renders only those in view.
const VIRTUAL_MIN_ROWS = 100;
// Rows rendered above and below the visible ones, in px of table (smooth scrolling).
const VIRTUAL_MARGIN_PX = 600;
// A row's height until one is measured (13 px text, 6 px padding, 1 px border).
const ROW_HEIGHT_GUESS_PX = 29;

// Text order for sorting: numbers inside names in numeric order ("layer_2" before
// "layer_10"), case ignored. One collator: localeCompare builds one per call, which made
// sorting 100,000 rows take seconds.
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compare(a: unknown, b: unknown): number {
  const aMissing = a === null || a === undefined;
  const bMissing = b === null || b === undefined;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collator.compare(String(a), String(b));
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

// "1 row", "25 rows".
function rowsText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`;
}

export function dataTable(options: TableOptions): HTMLElement {
  const columns = options.columns.map((c) => ({ ...c, type: c.type ?? inferType(options.rows, c.id), label: c.label ?? humanize(c.id) }));
  let sort = options.sort ?? null;
  let filter = '';
  let showAll = false;
  const pageSize = options.pageSize ?? 50;
  const expanded = new Set<Row>();
  const span = columns.length + (options.expand ? 1 : 0);

  // Each text column's labels, distinct over the whole column (not only the rows in view).
  const labels = new Map<string, Map<string, string>>();
  for (const column of columns) {
    // Sentences ('wrap' columns) wrap instead.
    if (column.render || column.type !== 'string' || column.className?.includes('wrap')) continue;
    const texts = [...new Set(options.rows.map((r) => r[column.id]).filter((v): v is string => typeof v === 'string'))];
    const maxChars = column.maxChars ?? (column.className?.includes('name') ? NAME_CHARS : TEXT_CHARS);
    if (!texts.some((t) => t.length > maxChars)) continue;
    const shown = distinctElided(texts, maxChars);
    labels.set(column.id, new Map(texts.map((t, i) => [t, shown[i]])));
  }

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
      update(true);
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
    const th = el('th', { 'data-col': column.id, class: `sortable type-${column.type} ${column.className ?? ''}`, tabindex: '0', title: `${column.description ? `${column.description}. ` : ''}Sort by ${column.label}` }, el('span', {}, column.label), el('span', { class: 'sort-mark' }));
    const activate = () => {
      if (sort && sort.column === column.id) {
        sort = { column: column.id, descending: !sort.descending };
      } else {
        // Numbers sort largest first, text A to Z: what one usually wants first.
        sort = { column: column.id, descending: column.type !== 'string' };
      }
      update(true);
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
  const scroller = el('div', { class: 'table-scroll' }, table);
  root.append(scroller);
  const more = el('div', { class: 'table-more' });
  root.append(more);

  // Every row in each column's ascending order, computed once per column: sorting again by
  // a column (the other way, or after filtering) is then a pass over the rows.
  const ascending = new Map<string, Row[]>();
  function sortedBy(column: string): Row[] {
    let sorted = ascending.get(column);
    if (!sorted) {
      // Values taken out once and compared by their one type: a 100,000-row table sorts in
      // a fraction of the time the general comparison takes. Missing values go last.
      const present: [unknown, Row][] = [];
      const missing: Row[] = [];
      for (const row of options.rows) {
        const value = row[column];
        if (value === null || value === undefined) missing.push(row);
        else present.push([value, row]);
      }
      if (present.every(([v]) => typeof v === 'number')) present.sort((a, b) => (a[0] as number) - (b[0] as number));
      else if (present.every(([v]) => typeof v === 'string')) present.sort((a, b) => collator.compare(a[0] as string, b[0] as string));
      else present.sort((a, b) => compare(a[0], b[0]));
      sorted = present.map(([, row]) => row);
      for (const row of missing) sorted.push(row);
      ascending.set(column, sorted);
    }
    return sorted;
  }

  function visibleRows(): Row[] {
    let rows = options.rows;
    if (sort) {
      const sorted = sortedBy(sort.column);
      if (sort.descending) {
        // Largest first; missing values stay last in both directions.
        const column = sort.column;
        let present = sorted.length;
        while (present > 0 && (sorted[present - 1][column] === null || sorted[present - 1][column] === undefined)) present--;
        const reversed = sorted.slice(0, present).reverse();
        // Rows of equal value keep the order they had (the sort is stable both ways).
        for (let i = 0; i < reversed.length; ) {
          let j = i + 1;
          while (j < reversed.length && reversed[j][column] === reversed[i][column]) j++;
          for (let a = i, b = j - 1; a < b; a++, b--) [reversed[a], reversed[b]] = [reversed[b], reversed[a]];
          i = j;
        }
        rows = reversed.concat(sorted.slice(present));
      } else {
        rows = sorted;
      }
    }
    if (filter && options.filterColumns) {
      const keys = options.filterColumns;
      rows = rows.filter((r) => keys.some((k) => String(r[k] ?? '').toLowerCase().includes(filter)));
    }
    return rows;
  }

  // The row's cells (and its details when expanded): one <tr>, or two.
  function rowElements(row: Row): HTMLElement[] {
    const tr = el('tr');
    if (options.expand) {
      const open = expanded.has(row);
      const button = el('button', { class: 'expand-button', 'aria-expanded': String(open), title: open ? 'Hide details' : 'Show details' }, open ? '▾' : '▸');
      button.addEventListener('click', () => {
        if (expanded.has(row)) expanded.delete(row);
        else expanded.add(row);
        update(false);
      });
      tr.append(el('td', { class: 'col-expand' }, button));
    }
    for (const column of columns) {
      const value = row[column.id];
      const content = column.render ? column.render(row) : value === '' && column.blank ? column.blank : formatCell(value, column.type, column.id);
      const shown = typeof value === 'string' ? labels.get(column.id)?.get(value) ?? content : content;
      const td = el('td', { class: `type-${column.type} ${column.className ?? ''}` }, shown);
      // The full text on hover, also where it is shown whole (tests read it there).
      if (typeof content === 'string' && column.type === 'string') td.title = content;
      tr.append(td);
    }
    if (!options.expand || !expanded.has(row)) return [tr];
    return [tr, el('tr', { class: 'detail-row' }, el('td', { colspan: String(span) }, options.expand(row)))];
  }

  // Showing all of a long table: the rows in view, between two spacers as tall as the
  // rows above and below. Heights are measured as rows are drawn (an expanded row is
  // taller), so the scrollbar and the position stay true to the whole table.
  let rows: Row[] = [];
  const heights = new WeakMap<Row, number>();
  let typicalHeight = ROW_HEIGHT_GUESS_PX;
  const heightOf = (row: Row) => heights.get(row) ?? typicalHeight;
  const spacer = (px: number) => {
    const tr = el('tr', { class: 'spacer-row', 'aria-hidden': 'true' }, el('td', { colspan: String(span) }));
    (tr.firstChild as HTMLElement).style.height = `${px}px`;
    return tr;
  };
  let virtual = false;
  let frame = 0;

  function drawWindow(): void {
    frame = 0;
    const top = scroller.scrollTop;
    const view = scroller.clientHeight || window.innerHeight;
    let y = 0;
    let i = 0;
    while (i < rows.length && y + heightOf(rows[i]) < top - VIRTUAL_MARGIN_PX) y += heightOf(rows[i++]);
    const start = i;
    const above = y;
    while (i < rows.length && y < top + view + VIRTUAL_MARGIN_PX) y += heightOf(rows[i++]);
    const end = i;
    let below = 0;
    for (; i < rows.length; i++) below += heightOf(rows[i]);
    const drawn = rows.slice(start, end).map((row) => ({ row, trs: rowElements(row) }));
    tbody.replaceChildren(spacer(above), ...drawn.flatMap((d) => d.trs), spacer(below));
    // Measure what was drawn (one layout for all of it).
    const measured = drawn.map((d) => d.trs.reduce((sum, tr) => sum + tr.getBoundingClientRect().height, 0));
    drawn.forEach((d, k) => {
      if (measured[k] <= 0) return;
      heights.set(d.row, measured[k]);
      if (d.trs.length === 1) typicalHeight = measured[k];
    });
  }

  scroller.addEventListener('scroll', () => {
    if (virtual && !frame) frame = requestAnimationFrame(drawWindow);
  });

  // Draws the rows again; `fromTop`: the order or the filter changed, so start at the first row.
  function update(fromTop: boolean): void {
    for (const th of headRow.querySelectorAll<HTMLElement>('th[data-col]')) {
      const active = sort && th.dataset.col === sort.column;
      th.setAttribute('aria-sort', active ? (sort!.descending ? 'descending' : 'ascending') : 'none');
      th.querySelector('.sort-mark')!.textContent = active ? (sort!.descending ? '▼' : '▲') : '';
    }
    if (fromTop || rows.length === 0) rows = visibleRows();
    virtual = showAll && rows.length > VIRTUAL_MIN_ROWS;
    scroller.classList.toggle('virtual', virtual);
    if (fromTop) scroller.scrollTop = 0;
    if (rows.length === 0) {
      tbody.replaceChildren(el('tr', { class: 'empty-row' }, el('td', { colspan: String(span) }, filter ? `No rows match “${filter}”.` : options.emptyText ?? 'No rows.')));
    } else if (virtual) {
      if (scroller.isConnected) drawWindow();
      else {
        // Not in the document yet: nothing to measure; draw the first screenful.
        tbody.replaceChildren(...rows.slice(0, pageSize).flatMap(rowElements), spacer(Math.max(0, rows.length - pageSize) * typicalHeight));
        requestAnimationFrame(() => virtual && drawWindow());
      }
    } else {
      tbody.replaceChildren(...(showAll ? rows : rows.slice(0, pageSize)).flatMap(rowElements));
    }
    count.textContent = filter ? `${rows.length.toLocaleString('en-US')} of ${rowsText(options.rows.length)}` : rowsText(options.rows.length);
    more.replaceChildren();
    if (rows.length > pageSize) {
      const toggle = el('button', { class: 'link-button' }, showAll ? `Show first ${pageSize}` : `Show all ${rows.length.toLocaleString('en-US')} rows`);
      toggle.addEventListener('click', () => {
        showAll = !showAll;
        // The same rows in the same order, from the top.
        scroller.scrollTop = 0;
        update(false);
      });
      more.append(toggle);
    }
  }

  update(true);
  return root;
}
