// Lint throughput on a corpus of realistic widget HTML, against the sanitizers it models, in the same run:
// DOMPurify on jsdom (configured as the console model) and sanitize-html. Rounds alternate between the
// three so that machine load hits all alike; the median round is reported.
// Run: node scripts/build-bench.mjs && node .bench/lint.bench.mjs
import { pathToFileURL } from 'node:url';
import sanitizeHtml from 'sanitize-html';
import { lint } from '../packages/harness/src/lint/index.js';
import { CONSOLE_PURIFY_CONFIG, consolePurifier } from '../test/fixtures/lint/console-purifier.js';
import { parseWellFormed } from '../packages/harness/src/lint/well-formed.js';
import { parseBodyFragment } from '../packages/harness/src/lint/body-fragment.js';

function tableWidget(rows: number): string {
  const row = (i: number) =>
    `<tr><td class="name">instance-${i}</td><td style="color:${i % 3 ? '#080' : '#c00'}">${(i * 7) % 100}%</td>` +
    `<td><a href="https://console.aws.amazon.com/ec2/home#Instances:instanceId=i-${i}" target="_blank">open</a> ` +
    `<button>Restart</button><cwdb-action action="call" endpoint="arn:aws:lambda:us-east-1:111122223333:function:restart" ` +
    `confirmation="Restart instance-${i}?">{"instanceId":"i-${i}","force":false}</cwdb-action></td></tr>`;
  return `<h3>EC2 instances</h3><p>As of <b>12:00 UTC</b>, ${rows} instances.</p><table><thead><tr><th>Name</th><th>CPU</th><th></th></tr></thead><tbody>${Array.from({ length: rows }, (_, i) => row(i)).join('')}</tbody></table>`;
}

function formWidget(): string {
  const options = Array.from({ length: 20 }, (_, i) => `<option value="r${i}"${i === 3 ? ' selected' : ''}>Region ${i}</option>`).join('');
  return `<form><label>Filter <input type="text" name="filter" value="cpu" placeholder="metric"></label>
<select name="region">${options}</select>
<label><input type="checkbox" name="live" checked> Live</label>
<label><input type="radio" name="period" value="60"> 1 min</label><label><input type="radio" name="period" value="300" checked> 5 min</label>
<textarea name="note" rows="3">notes</textarea></form>
<a class="btn btn-primary">Apply</a><cwdb-action action="call" endpoint="apply-filter" display="widget"></cwdb-action>
<a>Help</a><cwdb-action action="html" display="popup" event="mouseenter"><p>Pick a region and a <em>period</em>.</p></cwdb-action>`;
}

function chartWidget(points: number): string {
  const path = Array.from({ length: points }, (_, i) => `${i === 0 ? 'M' : 'L'}${i * 4} ${50 + Math.round(Math.sin(i / 5) * 40)}`).join(
    ' ',
  );
  return `<svg viewBox="0 0 ${points * 4} 100" width="100%" height="200" xmlns="http://www.w3.org/2000/svg"><g fill="none" stroke="#1f77b4" stroke-width="2"><path d="${path}"/></g><text x="4" y="12" font-size="10">CPU</text></svg>`;
}

function reportWidget(sections: number): string {
  return Array.from(
    { length: sections },
    (_, i) =>
      `<h4 id="s${i}">Section ${i}</h4><p>Latency p99 is <strong>${i * 3} ms</strong>; see <a href="https://example.com/runbook/${i}">the runbook</a>.</p><ul><li>errors: ${i}</li><li>requests: ${i * 1000}</li></ul><pre><code>SELECT * FROM logs WHERE id = ${i}</code></pre>`,
  ).join('\n');
}

function dirtyWidget(): string {
  return `<script>fetch('/x')</script><p onclick="go()">Click</p><a href="javascript:void(0)">x</a><iframe src="https://x"></iframe><img src=x onerror=alert(1)><svg><use href="#a"/></svg><x-gauge value="3">3</x-gauge>`.repeat(
    20,
  );
}

/** Hand-written HTML of the old school: optional end tags left out, upper case, comments. */
function handWrittenWidget(items: number): string {
  const list = Array.from({ length: items }, (_, i) => `<LI>Alarm ${i} <B>OK</B>`).join('\n');
  return `<!-- status widget --><H3>Alarms</H3><P>Checked at 12:00<P>All green<UL>\n${list}\n</UL><TABLE><TR><TD>Region<TD>us-east-1<TR><TD>Owner<TD>ops</TABLE>`;
}

/** HTML pasted from elsewhere: misnested formatting and stray end tags, which only parse5's repairs handle. */
function pastedWidget(blocks: number): string {
  return Array.from(
    { length: blocks },
    (_, i) => `<div class="alert"><b><i>Alarm ${i}</b> fired</i><br></br><font color="#c00">p99 over 900 ms</font></div></div>`,
  ).join('\n');
}

export const corpus = [
  tableWidget(10),
  tableWidget(100),
  formWidget(),
  chartWidget(400),
  reportWidget(40),
  dirtyWidget(),
  handWrittenWidget(200),
  pastedWidget(40),
];
const bytes = corpus.reduce((n, w) => n + w.length, 0);

const { purify } = consolePurifier();
const sanitizeHtmlConfig = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'cwdb-action',
    'svg',
    'g',
    'path',
    'text',
    'img',
    'form',
    'input',
    'select',
    'option',
    'label',
    'textarea',
    'button',
  ],
  allowedAttributes: false as const,
};

const peers: Record<string, (html: string) => unknown> = {
  'trellis lint': (html) => lint(html),
  // The same lint with every widget parsed by parse5, as HTML that is not well formed always is.
  'trellis lint, parse5 path only': (html) => lint({ source: html, root: parseBodyFragment(html) }),
  'DOMPurify + jsdom': (html) => purify.sanitize(html, CONSOLE_PURIFY_CONFIG),
  'sanitize-html': (html) => sanitizeHtml(html, sanitizeHtmlConfig),
};

/** MB/s of one peer over the whole corpus for about `ms` milliseconds. */
function round(run: (html: string) => unknown, ms: number): number {
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (const w of corpus) run(w);
    done += bytes;
  }
  return done / 1048576 / ((performance.now() - start) / 1000);
}

/** Runs the rounds and prints a Markdown table of MB/s per peer. */
export async function runLintBench(): Promise<void> {
  const rounds = Number(process.env.ROUNDS ?? 5);
  const results: Record<string, number[]> = Object.fromEntries(Object.keys(peers).map((k) => [k, []]));
  for (const run of Object.values(peers)) round(run, 300); // warm-up
  for (let r = 0; r < rounds; r++) for (const [name, run] of Object.entries(peers)) results[name]!.push(round(run, 1000));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const lintMBps = median(results['trellis lint']!);
  const fast = corpus.filter((w) => parseWellFormed(w) !== undefined);
  const fastBytes = fast.reduce((n, w) => n + w.length, 0);
  console.log(
    `\nLint throughput. Corpus: ${corpus.length} widgets, ${(bytes / 1024).toFixed(0)} KiB; ${rounds} alternating rounds, median`,
  );
  console.log(
    `Well-formed fast path: ${fast.length} of ${corpus.length} widgets, ${((100 * fastBytes) / bytes).toFixed(0)} % of the bytes; the rest goes through parse5.`,
  );
  console.log('| peer | MB/s | trellis lint is |');
  console.log('|---|---:|---:|');
  for (const [name, xs] of Object.entries(results)) {
    const m = median(xs);
    console.log(`| ${name} | ${m.toFixed(2)} | ${name === 'trellis lint' ? '—' : `${(lintMBps / m).toFixed(1)}×`} |`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runLintBench();
