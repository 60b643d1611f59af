// The charts' colours per theme. Every series colour has a contrast of at least 3:1 against its theme's
// background (WCAG 2.x, for graphics), and text at least 4.5:1; test/widgets/charts-palette.test.ts checks it.
import { refuse, type ChartColor, type ChartTheme } from './options.js';

/**
 * The colours of one theme.
 *
 * @example
 * const { background, series }: ChartPalette = CHART_PALETTES.light;
 */
export interface ChartPalette {
  /** The background the colours are chosen for: the console's widget background. */
  readonly background: string;
  /** Readouts and the empty-state message. */
  readonly text: string;
  /** Axis labels, the legend and the unit. */
  readonly muted: string;
  /** Grid lines and axes (decoration: no contrast needed). */
  readonly grid: string;
  /** Series colours, in the order series take them. */
  readonly series: readonly string[];
}

/**
 * The palettes of the light and dark themes.
 *
 * @example
 * CHART_PALETTES.dark.series[0]; // '#539fe5', the first series in the dark theme
 */
export const CHART_PALETTES: { readonly light: ChartPalette; readonly dark: ChartPalette } = {
  light: {
    background: '#ffffff',
    text: '#16191f',
    muted: '#5f6b7a',
    grid: '#e9ebed',
    series: ['#0972d3', '#d45b07', '#037f0c', '#b0084d', '#7d3fc3', '#00838f', '#8a6d00', '#d91515'],
  },
  dark: {
    background: '#2a2e33',
    text: '#d1d5db',
    muted: '#95a5a6',
    grid: '#414750',
    series: ['#539fe5', '#f89256', '#3fb24b', '#f27aa6', '#b28ff5', '#3ec2cf', '#dfc14a', '#ff7a7a'],
  },
};

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A colour per theme, checked: only hex colours go into a chart's style sheet. */
export function themeColors(fn: string, option: string, color: ChartColor): { light: string; dark: string } {
  const pair = typeof color === 'string' ? { light: color, dark: color } : color;
  if (!pair || typeof pair !== 'object') refuse(fn, option, 'a hex colour ("#0972d3") or { light, dark }', color);
  for (const theme of ['light', 'dark'] as const) {
    if (typeof pair[theme] !== 'string' || !HEX.test(pair[theme]))
      refuse(fn, typeof color === 'string' ? option : `${option}.${theme}`, 'a hex colour like "#0972d3"', pair[theme]);
  }
  return { light: pair.light, dark: pair.dark };
}

/** The colours of series `i` (the palette cycles), or the series' own. */
export function seriesColors(i: number, own: { light: string; dark: string } | undefined): { light: string; dark: string } {
  if (own) return own;
  const n = CHART_PALETTES.light.series.length;
  return { light: CHART_PALETTES.light.series[i % n]!, dark: CHART_PALETTES.dark.series[i % n]! };
}

/**
 * The CSS custom properties of a chart: `--c0`… for its series and `--tx`, `--mu`, `--gr`, `--bg` for text,
 * labels, grid and background, scoped to the chart's id. `auto` switches under `.cwdb-theme-dark`.
 */
export function paletteCss(scope: string, theme: ChartTheme, colors: readonly { light: string; dark: string }[]): string {
  const vars = (t: 'light' | 'dark') => {
    const p = CHART_PALETTES[t];
    let out = `--tx:${p.text};--mu:${p.muted};--gr:${p.grid};--bg:${p.background}`;
    for (let i = 0; i < colors.length; i++) out += `;--c${i}:${colors[i]![t]}`;
    return out;
  };
  if (theme !== 'auto') return `${scope}{${vars(theme)}}`;
  return `${scope}{${vars('light')}}.cwdb-theme-dark ${scope}{${vars('dark')}}`;
}
