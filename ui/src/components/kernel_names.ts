// Labels for GPU kernel names that can be told apart.
//
// C++ kernel names are long template instantiations; cut to a fixed width they all read
// the same ("void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<…"). A label
// here is the kernel's own name without namespaces, return type and parameter list, and -
// where several kernels share that name - the template arguments that tell them apart
// (those not common to all of them): "EigenMetaKernel<…scalar_sum_op, float…>".
// The full name belongs in a tooltip (title attribute) next to the label.
//
// Pure functions without imports, so tests/browser/kernel_names_test.mjs can load this
// file alone.

// Words that never tell two kernels apart.
const FILLER = new Set(['const', 'volatile', 'unsigned', 'signed', 'anonymous', 'namespace', 'lambda', 'struct', 'class']);
// Scalar types and flags: they tell kernels apart less than the operation does, so they come last.
const TYPES = new Set(['true', 'false', 'bool', 'char', 'short', 'int', 'long', 'float', 'double', 'half', 'Half', 'bfloat16', 'BFloat16', 'int8_t', 'uint8_t', 'int16_t', 'int32_t', 'int64_t', 'uint32_t', 'uint64_t', 'size_t']);
// A label shows at most this many distinguishing arguments.
const MAX_DISTINCT = 3;
const MAX_LABEL_CHARS = 72;

interface Parsed {
  head: string; // the kernel's own name: "EigenMetaKernel", "sgemm_128x64_nn"
  templated: boolean;
  words: string[]; // identifiers of the template arguments, last name component, in order
  tokens: string[]; // words and numbers, in order (the fallback when words do not differ)
}

// Index of the '(' that opens the parameter list: the first '(' at template depth 0 that
// is not "(anonymous namespace)".
function parameterListStart(name: string): number {
  let depth = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '<') depth++;
    else if (c === '>') depth = Math.max(0, depth - 1);
    else if (c === '(' && depth === 0 && i > 0 && !name.startsWith('(anonymous namespace)', i)) return i;
  }
  return -1;
}

// "void ns::Kernel<A, B>(args)" -> ["ns::Kernel", "A, B"].
function splitTemplate(name: string): [string, string | null] {
  let text = name.trim();
  const open = parameterListStart(text);
  if (open > 0) text = text.slice(0, open);
  // A return type ("void ", "__global__ void ") is whatever precedes the last space at depth 0.
  let depth = 0;
  let lastSpace = -1;
  let firstAngle = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<') {
      if (depth === 0 && firstAngle < 0) firstAngle = i;
      depth++;
    } else if (c === '>') depth = Math.max(0, depth - 1);
    else if (c === ' ' && depth === 0 && firstAngle < 0) lastSpace = i;
  }
  const start = lastSpace + 1;
  if (firstAngle < 0) return [text.slice(start), null];
  const end = text.lastIndexOf('>');
  return [text.slice(start, firstAngle), text.slice(firstAngle + 1, end > firstAngle ? end : text.length)];
}

function lastComponent(qualified: string): string {
  const parts = qualified.split('::').filter((p) => p !== '');
  return parts.length ? parts[parts.length - 1] : qualified;
}

function parse(name: string): Parsed {
  if (isPlaceholder(name)) return { head: name, templated: false, words: [], tokens: [] };
  const [qualifiedHead, args] = splitTemplate(name);
  const head = lastComponent(qualifiedHead.replace(/\(anonymous namespace\)::/g, '')) || name;
  const words: string[] = [];
  const tokens: string[] = [];
  if (args !== null) {
    for (const match of args.matchAll(/[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*|\d+/g)) {
      const token = /^\d/.test(match[0]) ? match[0] : lastComponent(match[0]);
      if (FILLER.has(token)) continue;
      tokens.push(token);
      if (!/^\d/.test(token)) words.push(token);
    }
  }
  return { head, templated: args !== null, words, tokens };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

// The items of `own` that some other member of the group lacks, in order, once each.
function distinguishing(own: string[], group: string[][]): string[] {
  const common = group.reduce<Set<string> | null>((acc, items) => {
    const set = new Set(items);
    return acc === null ? set : new Set([...acc].filter((x) => set.has(x)));
  }, null) ?? new Set<string>();
  return unique(own.filter((x) => !common.has(x)));
}

// What a reader most needs first: operations ("scalar_sum_op", "CUDAFunctor_add"), then
// Eigen's expression plumbing ("TensorConversionOp"), then scalar types, then numbers.
function rank(token: string): number {
  if (/^\d/.test(token)) return 3;
  if (TYPES.has(token)) return 2;
  return token.startsWith('Tensor') ? 1 : 0;
}
function byImportance(tokens: string[]): string[] {
  return tokens.map((t, i) => [t, i] as const).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([t]) => t);
}

function withArguments(head: string, shown: string[], all: number): string {
  if (shown.length === 0) return `${head}<…>`;
  let kept = shown.slice(0, MAX_DISTINCT);
  while (kept.length > 1 && head.length + kept.join(', ').length + 4 > MAX_LABEL_CHARS) kept = kept.slice(0, -1);
  const more = kept.length < all;
  return `${head}<…${kept.join(', ')}${more ? ', …' : '…'}>`;
}

// One kernel's label on its own: its name without namespaces, return type, parameters
// and template arguments ("EigenMetaKernel<…>").
export function shortKernelName(name: string): string {
  const p = parse(name);
  return p.templated ? `${p.head}<…>` : p.head;
}

// Labels for `names` (kernel names, full), one per name, in order. Equal names get equal
// labels; different names get different labels.
export function kernelLabels(names: string[]): string[] {
  const parsed = names.map(parse);
  const byHead = new Map<string, number[]>();
  const distinctNames = new Map<string, number>(); // full name -> first index
  names.forEach((name, i) => {
    if (distinctNames.has(name)) return;
    distinctNames.set(name, i);
    const list = byHead.get(parsed[i].head) ?? [];
    list.push(i);
    byHead.set(parsed[i].head, list);
  });
  const labelOf = new Map<string, string>();
  for (const members of byHead.values()) {
    if (members.length === 1) {
      labelOf.set(names[members[0]], shortKernelName(names[members[0]]));
      continue;
    }
    const wordsOf = members.map((i) => parsed[i].words);
    const tokensOf = members.map((i) => parsed[i].tokens);
    const labels = members.map((i, k) => {
      const words = distinguishing(wordsOf[k], wordsOf);
      const tokens = distinguishing(tokensOf[k], tokensOf);
      // Words read better; numbers (tile sizes, vector widths) only where words are equal.
      const clash = wordsOf.some((other, j) => j !== k && distinguishing(other, wordsOf).join() === words.join());
      const shown = byImportance(clash ? tokens : words);
      return withArguments(parsed[i].head, shown, shown.length);
    });
    // Names equal in every token (they differ in the parameter list only) are numbered.
    const seen = new Map<string, number>();
    members.forEach((i, k) => {
      const count = (seen.get(labels[k]) ?? 0) + 1;
      seen.set(labels[k], count);
      labelOf.set(names[i], count === 1 ? labels[k] : `${labels[k]} #${count}`);
    });
  }
  return names.map((name) => labelOf.get(name)!);
}

// Labels for framework op names ("replica_4/bert/encoder/layer_3/MatMul"), one per name, in
// order: the shortest tail of '/'-separated scopes that no other name shares; where names
// differ away from the tail (replica_4 vs replica_6, layer_17 vs layer_22), the scopes
// that differ, "…" for the ones between, and the op itself. Names without scopes
// (PyTorch's "aten::addmm") stay as they are; names still alike keep their full name.
// Linear in the names (times their depth and the names alike in depth and op): a
// TensorFlow profile has thousands of scoped ops, and comparing every pair took seconds.
export function opLabels(names: string[], maxChars = 48): string[] {
  const unique = [...new Set(names)];
  const parts = new Map(unique.map((name) => [name, name.split('/')]));
  const tail = (p: string[], k: number) => p.slice(p.length - k).join('/');
  // For each depth k: how many different names end in each k-scope tail.
  const tailCounts: Map<string, number>[] = [];
  const tailCount = (p: string[], k: number) => {
    let counts = tailCounts[k];
    if (!counts) {
      counts = new Map();
      for (const q of parts.values()) {
        if (q.length < k) continue;
        const t = tail(q, k);
        counts.set(t, (counts.get(t) ?? 0) + 1);
      }
      tailCounts[k] = counts;
    }
    return counts.get(tail(p, k)) ?? 0;
  };
  // Names of one depth and one op: the only ones the scope-picking below compares.
  const alikeGroups = new Map<string, string[][]>();
  const groupKey = (p: string[]) => `${p.length}\u0000${p[p.length - 1]}`;
  for (const p of parts.values()) {
    const key = groupKey(p);
    const group = alikeGroups.get(key);
    if (group) group.push(p);
    else alikeGroups.set(key, [p]);
  }
  const labelOf = new Map<string, string>();
  for (const name of unique) {
    const p = parts.get(name)!;
    if (p.length <= 2 && name.length <= maxChars) {
      labelOf.set(name, name);
      continue;
    }
    let k = 1;
    while (k < p.length && tailCount(p, k) > 1) k++;
    if (k < p.length) {
      labelOf.set(name, `…/${tail(p, k)}`);
      continue;
    }
    // Only scopes away from the tail tell it apart: keep the op, then, while another name of
    // the same depth reads the same, the scope that differs from most of them.
    const keep = new Set<number>([p.length - 1]);
    let conflicts = alikeGroups.get(groupKey(p))!.filter((q) => q !== p);
    while (conflicts.length && keep.size < 5) {
      let best = -1;
      let bestCount = 0;
      for (let at = p.length - 2; at >= 0; at--) {
        if (keep.has(at)) continue;
        let count = 0;
        for (const q of conflicts) if (q[at] !== p[at]) count++;
        if (count > bestCount) [best, bestCount] = [at, count];
      }
      if (best < 0) break;
      keep.add(best);
      conflicts = conflicts.filter((q) => q[best] === p[best]);
    }
    const kept = [...keep].sort((a, b) => a - b);
    let out = kept[0] > 0 ? '…/' : '';
    kept.forEach((at, n) => {
      if (n > 0) out += at === kept[n - 1] + 1 ? '/' : '/…/';
      out += p[at];
    });
    labelOf.set(name, out.length < name.length ? out : name);
  }
  // Where two different names still read the same, the full names.
  const seen = new Map<string, number>();
  for (const name of unique) seen.set(labelOf.get(name)!, (seen.get(labelOf.get(name)!) ?? 0) + 1);
  return names.map((name) => (seen.get(labelOf.get(name)!)! > 1 ? name : labelOf.get(name)!));
}

// Names that stand for no name ("(no op)", "(other)"): shown as they are.
function isPlaceholder(name: string): boolean {
  return /^\(.*\)$/.test(name);
}

// Whether a name is a C++ function signature (a GPU kernel): a return type, template
// arguments right after an identifier, or a parameter list that ends the name. Not
// PyTorch's "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__" (its "(" is
// inside the name, whose identifying part comes after) nor Python's "<built-in method …>".
function isSignature(name: string): boolean {
  if (isPlaceholder(name)) return false;
  return name.startsWith('void ') || /\w</.test(name) || /^[\w:~]+\(.*\)$/.test(name);
}

// Labels for a mix of names (an op pie holds framework ops and kernels): C++ signatures
// ("void ns::k<T>(…)") by kernelLabels, other names by opLabels, in order.
export function readableLabels(names: string[]): string[] {
  const signatures = names.filter(isSignature);
  const scoped = names.filter((n) => !isSignature(n));
  const signatureLabels = new Map(kernelLabels(signatures).map((label, i) => [signatures[i], label]));
  const scopedLabels = new Map(opLabels(scoped).map((label, i) => [scoped[i], label]));
  return names.map((n) => signatureLabels.get(n) ?? scopedLabels.get(n) ?? n);
}
