// Returns Markdown ({ markdown }); the harness renders it as the console does.
import { markdown } from 'trellis/widgets';

export const handler = async (event: { service?: string; widgetContext: { timeRange: { start: number; end: number } } }) => {
  const hours = (event.widgetContext.timeRange.end - event.widgetContext.timeRange.start) / 3_600_000;
  return markdown(
    `### ${event.service ?? 'Service'} status\n\n| Check | Result |\n| --- | --- |\n| API | healthy |\n| Queue | 0 messages |\n\nWindow: ${hours.toFixed(1)} h`,
  );
};
