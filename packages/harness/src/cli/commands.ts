/** One entry per subcommand; each module exports `run(args): Promise<number | void>`. */
export interface CommandModule {
  run(args: string[]): Promise<number | void>;
}
export interface CommandEntry {
  summary: string;
  load(): Promise<CommandModule>;
}

export const commands: Record<string, CommandEntry> = {
  harness: {
    summary: 'start the dashboard test harness HTTP API',
    load: () => import('./harness-command.js'),
  },
  lint: { summary: 'report HTML the CloudWatch console would strip from a widget', load: () => import('./lint-command.js') },
  snapshot: {
    summary: 'draw every custom widget as a PNG per theme, with a gallery; compare with golden images',
    load: () => import('./snapshot-command.js'),
  },
  openapi: { summary: "write the OpenAPI 3.1 document of a module's Trellis app", load: () => import('./openapi-command.js') },
  'aws-samples': {
    summary: "run AWS's public sample widgets through the harness and report each",
    load: () => import('./aws-samples-command.js'),
  },
};
