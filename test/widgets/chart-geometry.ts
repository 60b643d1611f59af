// Reads a chart's HTML as the console's parser does and collects what the tests check: every coordinate the
// SVG draws at (attributes and path data, with the groups' translations), texts and tables.
import { parseWidgetHtml } from 'trellis-harness/lint';

interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  value?: string;
  content?: Node;
}

/** A point the SVG draws at, and where it came from (for messages). */
export interface Point {
  x: number;
  y: number;
  from: string;
}

export interface ChartGeometry {
  width: number;
  height: number;
  points: Point[];
  /** Every element of the chart, in document order. */
  elements: { tag: string; attrs: Record<string, string>; text: string }[];
}

const attrsOf = (n: Node): Record<string, string> => Object.fromEntries((n.attrs ?? []).map((a) => [a.name, a.value]));

/** The text of a node and its descendants. */
export function textOf(n: Node): string {
  if (n.nodeName === '#text') return n.value ?? '';
  return (n.childNodes ?? []).map(textOf).join('');
}

function* walk(n: Node): Generator<Node> {
  yield n;
  for (const c of n.childNodes ?? []) yield* walk(c);
}

/** The absolute end points of path data (M L H V Z, their relative forms, and arcs). */
export function pathPoints(d: string): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  const tokens = d.match(/[MmLlHhVvZzAa]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? [];
  let i = 0;
  let x = 0;
  let y = 0;
  let sx = 0;
  let sy = 0;
  let cmd = '';
  const num = () => Number(tokens[i++]);
  while (i < tokens.length) {
    if (/[A-Za-z]/.test(tokens[i]!)) cmd = tokens[i++]!;
    switch (cmd) {
      case 'M':
        x = num();
        y = num();
        sx = x;
        sy = y;
        cmd = 'L';
        break;
      case 'm':
        x += num();
        y += num();
        sx = x;
        sy = y;
        cmd = 'l';
        break;
      case 'L':
        x = num();
        y = num();
        break;
      case 'l':
        x += num();
        y += num();
        break;
      case 'H':
        x = num();
        break;
      case 'h':
        x += num();
        break;
      case 'V':
        y = num();
        break;
      case 'v':
        y += num();
        break;
      case 'A':
        i += 5;
        x = num();
        y = num();
        break;
      case 'Z':
      case 'z':
        x = sx;
        y = sy;
        continue;
      default:
        throw new Error(`unexpected path command ${cmd} in ${d.slice(0, 80)}`);
    }
    out.push({ x, y });
  }
  return out;
}

/** The geometry of the (first) chart SVG in some HTML. */
export function chartGeometry(html: string): ChartGeometry {
  const root = parseWidgetHtml(html).root as unknown as Node;
  const svg = [...walk(root)].find((n) => n.tagName === 'svg');
  if (!svg) throw new Error('no <svg> in the chart');
  const view = attrsOf(svg).viewBox!.split(' ').map(Number);
  const points: Point[] = [];
  const elements: ChartGeometry['elements'] = [];
  const visit = (n: Node, dx: number, dy: number) => {
    const a = attrsOf(n);
    const tag = n.tagName ?? n.nodeName;
    elements.push({ tag, attrs: a, text: textOf(n) });
    const t = /^translate\((-?[\d.]+)[ ,](-?[\d.]+)\)$/.exec(a.transform ?? '');
    if (a.transform && !t) throw new Error(`unexpected transform ${a.transform}`);
    const ox = dx + (t ? Number(t[1]) : 0);
    const oy = dy + (t ? Number(t[2]) : 0);
    const at = (x: string | undefined, y: string | undefined, from: string) => {
      if (x !== undefined || y !== undefined) points.push({ x: ox + Number(x ?? 0), y: oy + Number(y ?? 0), from });
    };
    if (tag === 'rect') {
      at(a.x, a.y, `<rect> at ${a.x},${a.y}`);
      at(String(Number(a.x ?? 0) + Number(a.width)), String(Number(a.y ?? 0) + Number(a.height)), `<rect> far corner`);
      if (!(Number(a.width) >= 0 && Number(a.height) >= 0)) throw new Error(`a rect of negative size: ${JSON.stringify(a)}`);
    } else if (tag === 'text') at(a.x, a.y, `<text> ${textOf(n).slice(0, 30)}`);
    else if (tag === 'circle') at(a.cx, a.cy, '<circle>');
    else if (tag === 'line') {
      at(a.x1, a.y1, '<line>');
      at(a.x2, a.y2, '<line>');
    } else if (tag === 'path')
      for (const p of pathPoints(a.d ?? '')) points.push({ x: ox + p.x, y: oy + p.y, from: `<path class="${a.class}">` });
    for (const c of n.childNodes ?? []) if (c.tagName) visit(c, ox, oy);
  };
  for (const c of svg.childNodes ?? []) if (c.tagName) visit(c, 0, 0);
  return { width: view[2]!, height: view[3]!, points, elements };
}

/** The points outside the viewBox (a tenth of a pixel of rounding allowed). */
export function outside(g: ChartGeometry): Point[] {
  return g.points.filter((p) => !(p.x >= -0.05 && p.x <= g.width + 0.05 && p.y >= -0.05 && p.y <= g.height + 0.05));
}

/** The data table's rows (header row first), as text. */
export function tableRows(html: string): string[][] {
  const root = parseWidgetHtml(html).root as unknown as Node;
  const rows: string[][] = [];
  for (const n of walk(root)) {
    if (n.tagName !== 'tr') continue;
    rows.push((n.childNodes ?? []).filter((c) => c.tagName === 'th' || c.tagName === 'td').map(textOf));
  }
  return rows;
}
