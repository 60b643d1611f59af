// A pie chart of the shares in the widget's params, drawn by pieChart: a donut when `donut` is true.
import { pieChart, type WidgetEvent } from 'trellis/widgets';

interface Params {
  /** Label → value. */
  data?: Record<string, number>;
  donut?: boolean;
  unit?: string;
}

const DOCUMENTATION = 'Draws a pie chart of its params. Params: `data` (an object of label → value), `donut` (true for a ring), `unit`.';

export const handler = async (event: WidgetEvent<Params>) => {
  if (event.describe) return DOCUMENTATION;
  const slices = Object.entries(event.data ?? {}).map(([label, value]) => ({ label, value }));
  return pieChart({ context: event, slices, donut: event.donut === true, ...(event.unit ? { unit: event.unit } : {}) }).toString();
};
