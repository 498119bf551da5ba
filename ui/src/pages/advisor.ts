// Advisor: every finding with its evidence, the numbers behind it, the advice, and a link
// to the page that shows the evidence.
import { badge, card, emptyState } from '../components/cards';
import { dataTable } from '../components/table';
import type { Finding } from '../generated/tools';
import { el } from '../format';
import { generatedColumns, resultOf, toolHref, toolTitle, type PageContext } from './page';

const SEVERITY_TONE: Record<string, 'bad' | 'warn' | 'info'> = { high: 'bad', medium: 'warn', low: 'info' };

function numberText(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toFixed(2);
}

export function findingCard(finding: Finding, ctx: PageContext, compact = false): HTMLElement {
  const severity = finding.severity || 'low';
  const chips = Object.entries(finding.numbers).map(([key, value]) =>
    el('span', { class: 'chip' }, el('span', { class: 'chip-key' }, key.replace(/_/g, ' ')), el('span', { class: 'chip-value' }, numberText(value))),
  );
  // A link to the page that shows the evidence, unless that is this page.
  const tool = finding.tool;
  const link = tool && tool !== ctx.selection.tool
    ? el('a', { class: 'finding-link', href: toolHref(ctx.selection, tool), 'data-link-tool': tool }, `See it in ${toolTitle(tool)} →`)
    : null;
  return el(
    'article',
    { class: `finding severity-${severity}`, 'data-finding': finding.id },
    el('div', { class: 'finding-head' }, badge(severity.toUpperCase(), SEVERITY_TONE[severity] ?? 'info'), el('h3', { class: 'finding-title' }, finding.title)),
    el('div', { class: 'finding-evidence' }, el('span', { class: 'label' }, 'Evidence: '), finding.evidence),
    compact ? null : chips.length ? el('div', { class: 'chips' }, ...chips) : null,
    el('div', { class: 'finding-advice' }, finding.advice),
    link,
  );
}

export function renderAdvisor(ctx: PageContext): HTMLElement {
  const d = resultOf(ctx, 'advisor');
  const findings = d.findings;
  const checks = d.checks;
  const page = el('div', { class: 'page page-advisor' });
  const fired = checks.filter((c) => c.fired).length;
  page.append(
    card(
      'Recommendations',
      { subtitle: findings.length ? `${findings.length} finding${findings.length === 1 ? '' : 's'}, most important first` : undefined, id: 'findings' },
      findings.length
        ? el('div', { class: 'findings' }, ...findings.map((f) => findingCard(f, ctx)))
        : emptyState('Nothing to fix', `All ${checks.length} checks passed: no input bottleneck, launch overhead, precision or placement problem was found in this profile.`),
    ),
  );
  if (checks.length) {
    page.append(
      card(
        'Checks',
        { subtitle: `${fired} of ${checks.length} fired — every rule the advisor applies, with the numbers it saw`, id: 'checks' },
        dataTable({
          name: 'checks',
          columns: generatedColumns('advisor', 'checks', checks, {
            id: { render: (r) => el('code', {}, String(r.id)) },
            fired: { label: 'Result', type: 'bool', render: (r) => (r.fired ? badge('fired', 'warn') : badge('ok', 'good')) },
            detail: { label: 'What it saw', className: 'wrap' },
          }),
          rows: checks as never,
          sort: { column: 'fired', descending: true },
          filterColumns: ['id', 'detail'],
          filterPlaceholder: 'Filter checks',
          pageSize: 100,
        }),
      ),
    );
  }
  return page;
}
