// The charts' palettes against WCAG 2.x contrast, computed here from the colours: every series colour at least
// 3:1 against its theme's background (graphical objects), every text colour at least 4.5:1 (small text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHART_PALETTES } from '../../packages/trellis/src/widgets/index.js';

/** Relative luminance of an sRGB hex colour (WCAG 2.x). */
function luminance(hex: string): number {
  const full = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

test('the contrast computation matches known pairs', () => {
  assert.equal(contrast('#000000', '#ffffff'), 21);
  assert.equal(contrast('#fff', '#fff'), 1);
  assert.equal(contrast('#767676', '#ffffff').toFixed(2), '4.54');
});

for (const theme of ['light', 'dark'] as const) {
  const p = CHART_PALETTES[theme];
  test(`${theme} theme: every series colour has at least 3:1 against ${p.background}`, () => {
    assert.ok(p.series.length >= 8, 'eight series before colours repeat');
    for (const c of p.series)
      assert.ok(contrast(c, p.background) >= 3, `${c} on ${p.background}: ${contrast(c, p.background).toFixed(2)}:1`);
  });

  test(`${theme} theme: text and labels have at least 4.5:1; the series colours differ from each other`, () => {
    for (const c of [p.text, p.muted])
      assert.ok(contrast(c, p.background) >= 4.5, `${c} on ${p.background}: ${contrast(c, p.background).toFixed(2)}:1`);
    assert.equal(new Set(p.series).size, p.series.length);
  });
}

test("the dark palette is for the console's dark widget background, darker than the light one", () => {
  assert.ok(luminance(CHART_PALETTES.dark.background) < luminance(CHART_PALETTES.light.background));
  assert.equal(CHART_PALETTES.light.series.length, CHART_PALETTES.dark.series.length);
});
