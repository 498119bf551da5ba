// Any tool without a page of its own: its tables (from the JSON arrays of objects) and
// scalar fields, so a new tool in the registry is usable in the UI at once.
import { card, diagnosticsList, keyValues } from '../components/cards';
import { dataTable } from '../components/table';
import { el } from '../format';
import { csvButton } from './input_pipeline';
import { type PageContext } from './page';

export function renderGeneric(ctx: PageContext): HTMLElement {
  const page = el('div', { class: 'page page-generic' });
  const scalars: [string, string][] = [];
  for (const [key, value] of Object.entries(ctx.data)) {
    if (key === 'diagnostics' || key === 'tool') continue;
    if (Array.isArray(value) && value.length && typeof value[0] === 'object' && value[0] !== null) {
      const rows = value as Record<string, unknown>[];
      page.append(
        card(
          key.replace(/_/g, ' '),
          {},
          dataTable({
            name: key,
            columns: Object.keys(rows[0]).map((id) => ({ id })),
            rows: rows as never,
            filterColumns: Object.keys(rows[0]).filter((k) => typeof rows[0][k] === 'string'),
            toolbar: [csvButton(ctx, key)],
          }),
        ),
      );
    } else if (value === null || typeof value !== 'object') {
      scalars.push([key.replace(/_/g, ' '), String(value)]);
    }
  }
  if (scalars.length) page.prepend(card('Summary', {}, keyValues(scalars)));
  const notes = diagnosticsList(ctx.data.diagnostics);
  if (notes) page.append(notes);
  return page;
}
