// `trellis aws-samples <folder>`: runs AWS's public custom-widget samples (a checkout of
// aws-samples/cloudwatch-custom-widgets-samples), unmodified, through the harness, and prints a Markdown table of
// every sample and what it showed.
//
// Every Node.js and Python sample runs as its dashboard.json shows it, as part of the stack the samples' build
// script (scripts/build-assets) makes of it: the same template — function lambdaFunction (128 MB, 60 s, named
// after the stack) and its dashboard, whose body is dashboard.json under Fn::Sub — resolved by the harness's
// template loader, with the code read from the sample's folder instead of inlined. Three samples get what they need to
// show data without an AWS account: s3GetObject reads an S3 emulator (s3rver, on 127.0.0.1) through the
// harness's awsEndpoint; ec2Table and cloudWatchMetricDataTable load the setup modules in the package's
// examples/aws/, which stub EC2 and CloudWatch with aws-sdk-client-mock. Those packages are optional
// dependencies of the harness: when one is left out, the run stops at once with one line naming what to
// install. fetchURL and rssReader are pointed at pages this script
// serves on 127.0.0.1 instead of the public web (the machine may have no network). Every other sample calls
// AWS without credentials and must fail with a credentials error before any network call.
// Exit code 0 when every Node.js sample loads and the three data samples render their data.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createInterpreter, resolveTemplate, TemplateError, validateFunctionsConfig, type FunctionSpec } from '../dashboard/index.js';
import { startS3Emulator } from './s3-emulator.js';
import { startLocalHttps } from './local-https.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/aws/', import.meta.url));
const REGION = 'us-east-1';
const ACCOUNT = '123456789012';
/** The samples that must render data here, and how. */
const SETUP: Record<string, string[]> = {
  ec2Table: [join(EXAMPLES, 'stub-ec2.cjs'), join(EXAMPLES, 'stub-cloudwatch.cjs')],
  cloudWatchMetricDataTable: [join(EXAMPLES, 'stub-cloudwatch.cjs')],
};
const MUST_RENDER = ['s3GetObject', 'ec2Table', 'cloudWatchMetricDataTable'];
/** The harness's optional dependencies each of those samples needs here: the emulator, the stubs and their clients. */
const NEEDS: Record<string, string[]> = {
  s3GetObject: ['s3rver', '@aws-sdk/client-s3'],
  ec2Table: ['aws-sdk-client-mock', '@aws-sdk/client-ec2', '@aws-sdk/client-cloudwatch'],
  cloudWatchMetricDataTable: ['aws-sdk-client-mock', '@aws-sdk/client-cloudwatch'],
};

/**
 * What the chosen samples need that is not installed, as one line saying what to install (the versions the
 * harness asks for), or undefined when nothing is missing. The packages are looked up from the stubs' folder,
 * as the stubs' `require` and the S3 emulator's `import` find them.
 */
function missingDependencies(samples: readonly string[]): string | undefined {
  const require = createRequire(join(EXAMPLES, 'stub-ec2.cjs'));
  const wanted = [...new Set(samples.flatMap((sample) => NEEDS[sample] ?? []))];
  const missing = wanted.filter((name) => {
    try {
      require.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return undefined;
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    optionalDependencies?: Record<string, string>;
  };
  const users = samples.filter((sample) => NEEDS[sample]?.some((name) => missing.includes(name)));
  const specs = missing.map((name) => `${name}@${manifest.optionalDependencies?.[name] ?? 'latest'}`);
  const what =
    missing.length === 1
      ? 'an optional dependency of trellis-harness that is not installed'
      : 'optional dependencies of trellis-harness that are not installed';
  return `trellis aws-samples: ${users.join(', ')} need${users.length === 1 ? 's' : ''} ${missing.join(', ')}, ${what}: npm install --save-dev ${specs.join(' ')}\n`;
}

const REPORT =
  '<h2>Power stats</h2><table><tr><th>Site</th><th>kWh</th></tr><tr><td>North</td><td>1,204</td></tr><tr><td>South</td><td>987</td></tr></table>';
const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>Status</title>
<item><title>Service is operating normally</title><pubDate>Fri, 01 Nov 2024 10:00:00 GMT</pubDate><description>All green.</description></item>
<item><title>Increased latency resolved</title><pubDate>Thu, 31 Oct 2024 18:30:00 GMT</pubDate><description>Latency is back to normal.</description></item>
</channel></rss>`;
const ATOM = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Top</title>
<entry><title>First entry</title><updated>2024-11-01T10:00:00Z</updated><content>Hello from a local feed.</content></entry>
</feed>`;
// A 1×1 transparent GIF.
const IMAGE = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const PAGES: Record<string, { type: string; body: string | Buffer }> = {
  '/page.html': { type: 'text/html', body: '<h1>HTML</h1><p>A page served on 127.0.0.1 by the sample runner.</p>' },
  '/image.gif': { type: 'image/gif', body: IMAGE },
  '/status.rss': { type: 'application/rss+xml', body: RSS },
  '/top.atom': { type: 'application/atom+xml', body: ATOM },
};
/** Where fetchURL's and rssReader's public URLs are sent instead, by widget position. */
const LOCAL_URLS: Record<string, string[]> = {
  fetchURL: ['/image.gif', '/page.html'],
  rssReader: ['/status.rss', '/status.rss', '/top.atom', '/status.rss'],
};

/**
 * The stack the samples' build script makes for one sample in one language, with the code in `folder` instead
 * of inlined (`Code.ZipFile`).
 */
function sampleTemplate(folder: string, sample: string, python: boolean, dashboard: string): Record<string, unknown> {
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Resources: {
      lambdaFunction: {
        Type: 'AWS::Lambda::Function',
        Properties: {
          Code: folder,
          FunctionName: { 'Fn::Sub': '${AWS::StackName}' },
          Handler: python ? `${sample}.lambda_handler` : `${sample}.handler`,
          MemorySize: 128,
          Runtime: python ? 'python3.12' : 'nodejs22.x',
          Timeout: 60,
        },
      },
      demoDashboard: {
        Type: 'AWS::CloudWatch::Dashboard',
        Properties: { DashboardName: { 'Fn::Sub': '${AWS::StackName}-${AWS::Region}' }, DashboardBody: { 'Fn::Sub': dashboard } },
      },
    },
  };
}

interface Row {
  sample: string;
  runtime: 'Node.js' | 'Python';
  how: string;
  widgets: number;
  rendered: number;
  result: string;
  importError: boolean;
}

function listen(server: Server): Promise<number> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
}

/** The error message a widget that catches its own errors shows in its HTML (text around "error" or "credentials"). */
function reportedError(html: string): string | undefined {
  const text = html
    .replace(/<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z]+;/g, ' ')
    .replace(/\s+/g, ' ');
  const match = /[^.:]*\b(error|credentials?)\b[^.<]*/i.exec(text);
  return match ? match[0].trim().slice(0, 120) : undefined;
}

const firstLine = (text: string): string =>
  text
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 160) ?? '';

const USAGE = `usage: trellis aws-samples <checkout of cloudwatch-custom-widgets-samples> [--only <sample>]

Runs AWS's public custom-widget samples, unmodified, through the harness and prints a Markdown table of what
each showed. Exit status: 0 when every Node.js sample loads and the S3, EC2 and metric samples render their
data, 1 otherwise, 2 for a usage error.
`;

export async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { only: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const samplesDir = join(resolve(positionals[0]!), 'samples');
  if (!existsSync(samplesDir)) {
    process.stderr.write(`no samples/ folder in ${resolve(positionals[0]!)}\n`);
    return 2;
  }
  const names = readdirSync(samplesDir)
    .filter((n) => existsSync(join(samplesDir, n, 'dashboard.json')) && (!values.only || n === values.only))
    .sort();
  const missing = missingDependencies(names);
  if (missing) {
    process.stderr.write(missing);
    return 1;
  }

  const servePage = (req: IncomingMessage, res: ServerResponse): void => {
    const page = PAGES[req.url ?? ''];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': page.type }).end(page.body);
  };
  const pages = createServer(servePage);
  const pagesPort = await listen(pages);
  // Node.js samples fetch with the https module only: they get the same pages over HTTPS, trusting its certificate.
  const securePages = await startLocalHttps(servePage);
  const s3 = names.includes('s3GetObject') ? await startS3Emulator(['custom-widget-demo-bucket']) : undefined;
  await s3?.put('custom-widget-demo-bucket', 'sample-report.html', REPORT);

  const functions: Record<string, FunctionSpec> = {};
  const runs: Array<{ sample: string; key: string; runtime: Row['runtime']; how: string; dashboard: string | TemplateError }> = [];
  for (const sample of names) {
    for (const [runtime, file] of [
      ['Node.js', `${sample}.js`],
      ['Python', `${sample}.py`],
    ] as const) {
      if (!existsSync(join(samplesDir, sample, file))) continue;
      // The stack name is the function's name, as the samples' README has you name each stack.
      const key = runtime === 'Python' ? `${sample}Py` : sample;
      const folder = join(samplesDir, sample);
      let stack;
      try {
        const template = sampleTemplate(folder, sample, runtime === 'Python', readFileSync(join(folder, 'dashboard.json'), 'utf8'));
        stack = resolveTemplate(template, {
          baseDir: folder,
          file: join(folder, 'dashboard.json'),
          stackName: key,
          region: REGION,
          accountId: ACCOUNT,
        });
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        runs.push({ sample, key, runtime, how: 'template', dashboard: error });
        continue;
      }
      const [arn, spec] = Object.entries(stack.functions.functions)[0]!;
      let how = 'no credentials';
      if (sample === 's3GetObject' && s3) {
        spec.awsEndpoint = s3.endpointWithCredentials;
        how = 'awsEndpoint: s3rver';
      } else if (SETUP[sample] && runtime === 'Node.js') {
        spec.setup = SETUP[sample];
        how = `setup: ${SETUP[sample].map((f) => f.split('/').pop()).join(', ')}`;
      } else if (LOCAL_URLS[sample]) {
        how = 'URLs on 127.0.0.1';
        if (runtime === 'Node.js' && securePages) {
          spec.environment = { ...spec.environment, NODE_EXTRA_CA_CERTS: securePages.caFile };
          how = 'HTTPS URLs on 127.0.0.1';
        }
      }
      functions[arn] = spec;
      runs.push({ sample, key, runtime, how, dashboard: stack.dashboards[0]!.text });
    }
  }
  const harness = createInterpreter({ functions: validateFunctionsConfig({ functions }, samplesDir) });
  const rows: Row[] = [];
  try {
    for (const run of runs) {
      if (run.dashboard instanceof TemplateError) {
        const result = `cannot resolve the sample's stack: ${run.dashboard.message}`;
        rows.push({ sample: run.sample, runtime: run.runtime, how: run.how, widgets: 0, rendered: 0, result, importError: false });
        process.stderr.write(`${run.key}: ${result}\n`);
        continue;
      }
      const source = JSON.parse(run.dashboard) as { widgets: Array<{ type: string; properties: { params?: { url?: string } } }> };
      let local = 0;
      for (const widget of source.widgets) {
        if (widget.type === 'custom' && LOCAL_URLS[run.sample] && widget.properties.params?.url) {
          const origin =
            run.runtime === 'Node.js' && securePages ? `https://127.0.0.1:${securePages.port}` : `http://127.0.0.1:${pagesPort}`;
          widget.properties.params.url = `${origin}${LOCAL_URLS[run.sample]![local++ % LOCAL_URLS[run.sample]!.length]}`;
        }
      }
      const dash = await harness.load(source, { name: run.key });
      const custom = dash.widgets().filter((w) => w.type === 'custom');
      let rendered = 0;
      const errors: string[] = [];
      const shown: string[] = [];
      for (const w of custom) {
        const view = await dash.readWidget(w.index);
        if (view.error) errors.push(`${view.error.type}: ${firstLine(view.error.message)}`);
        else if (view.html.length > 0) {
          rendered++;
          const said = reportedError(view.html);
          if (said) shown.push(said);
        }
      }
      const saying = shown.length ? `, showing its own error: "${[...new Set(shown)].join('" / "')}"` : '';
      const result =
        errors.length === 0
          ? `renders (${rendered}/${custom.length} widgets)${saying}`
          : `${[...new Set(errors)].join(' / ')}${rendered ? ` (${rendered}/${custom.length} render${saying})` : ''}`;
      rows.push({
        sample: run.sample,
        runtime: run.runtime,
        how: run.how,
        widgets: custom.length,
        rendered,
        result,
        importError: errors.some((e) => /^Runtime\.(ImportModuleError|UserCodeSyntaxError)/.test(e)),
      });
      process.stderr.write(`${run.key}: ${result}\n`);
    }
  } finally {
    await harness.close();
    await s3?.close();
    pages.close();
    securePages?.close();
  }
  const cell = (s: string) => s.replaceAll('|', '\\|');
  process.stdout.write('| Sample | Runtime | Run with | Result |\n|---|---|---|---|\n');
  for (const r of rows) process.stdout.write(`| ${r.sample} | ${r.runtime} | ${cell(r.how)} | ${cell(r.result)} |\n`);
  const loadFailures = rows.filter((r) => r.runtime === 'Node.js' && r.importError);
  const missingData = MUST_RENDER.filter((s) => names.includes(s)).filter(
    (s) => !rows.some((r) => r.sample === s && r.runtime === 'Node.js' && r.rendered === r.widgets && r.widgets > 0),
  );
  if (loadFailures.length || missingData.length) {
    process.stderr.write(
      `not loaded: ${loadFailures.map((r) => r.sample).join(', ') || 'none'}; not rendered: ${missingData.join(', ') || 'none'}\n`,
    );
    return 1;
  }
  return 0;
}
