// The widget example bundled as `sam build` bundles it (esbuild with the template's build properties: one ES
// module for the template's Node.js), then run by plain Node.js without a TypeScript loader: the deployable artifact
// answers widget events, and it holds none of the harness, the dashboard interpreter or the linter.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { readTemplate } from '../support/cloudformation-template.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the widget example as a Lambda bundle', { timeout: 60_000 }, () => {
  it('bundles to one ES module that answers a load, a call and describe under plain Node.js', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-widget-bundle-'));
    try {
      const props = readTemplate(`${ROOT}examples/lambda-widget/template.yaml`).Resources.ServiceStatusFunction.Metadata.BuildProperties;
      const option = (list: string[] | undefined, key: string) => list?.find((e) => e.startsWith(`${key}=`))?.slice(key.length + 1);
      const outfile = join(dir, `handler${option(props.OutExtension, '.js') ?? '.js'}`);
      const result = await build({
        entryPoints: props.EntryPoints.map((e: string) => `${ROOT}examples/lambda-widget/${e}`),
        bundle: true,
        platform: 'node',
        format: props.Format,
        target: props.Target,
        outfile,
        metafile: true,
        logLevel: 'silent',
        absWorkingDir: ROOT,
        ...(props.Banner ? { banner: { js: option(props.Banner, 'js')! } } : {}),
      });
      const inputs = Object.keys(result.metafile.inputs);
      for (const room of ['harness', 'dashboard', 'lint', 'cli']) {
        assert.deepEqual(
          inputs.filter((i) => i.startsWith(`src/${room}/`)),
          [],
          `no ${room} code in a deployed widget`,
        );
      }
      for (const pkg of ['parse5', 'markdown-it', 'entities', 'yaml']) {
        assert.deepEqual(
          inputs.filter((i) => i.includes(`node_modules/${pkg}/`)),
          [],
          `${pkg} is not bundled`,
        );
      }
      const script = `
        import { readFileSync } from 'node:fs';
        const { handler } = await import(${JSON.stringify(outfile)});
        const load = JSON.parse(readFileSync(${JSON.stringify(`${ROOT}test/fixtures/lambda-widget/load.json`)}, 'utf8'));
        const context = { invokedFunctionArn: 'arn:aws:lambda:eu-west-1:111122223333:function:trellis-service-status' };
        const out = [await handler(load, context), await handler({ ...load, id: 'eu-west-1:search', route: '/service' }, context), await handler({ describe: true }, context)];
        process.stdout.write(JSON.stringify(out));`;
      const [overview, details, docs] = JSON.parse(
        execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }),
      ) as string[];
      assert.match(overview!, /^<h4>Services in eu-west-1 \(Operations\)<\/h4>/);
      assert.match(
        overview!,
        /<cwdb-action action="call" endpoint="arn:aws:lambda:eu-west-1:111122223333:function:trellis-service-status" display="popup">/,
      );
      assert.match(details!, /^<h4>search in eu-west-1<\/h4>/);
      assert.match(docs!, /^## Service status widget\n/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
