// Layout facts read from the harness page itself, for the browser tests: cards inside the grid and apart,
// frames inside their cards and laid out at the size the function is told, titles not hidden by badges, and
// which frames' content overflows. Also the accessibility check (axe-core injected into the page) and the
// screenshots the tests take.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export interface CardFacts {
  id: string;
  state: string;
  title: string | null;
  /** Title text shown whole (not cut with an ellipsis). */
  titleWhole: boolean;
  /** Share of the room beside the Inspect button (title and badges) that the title has. */
  titleShare: number;
  /** Badges drawn over the title. */
  badgesOverTitle: boolean;
  hasHeader: boolean;
  /** The frame's layout size (before scaling) and the size its card was told, in pixels. */
  frame: { width: number; height: number; contextWidth: number; contextHeight: number; scale: number } | null;
  /** The frame's scaled box lies inside the card's body. */
  frameInside: boolean;
  /** The frame's document is larger than the frame (it scrolls). */
  overflowX: boolean;
  overflowY: boolean;
}

export interface LayoutFacts {
  cards: CardFacts[];
  /** Pairs of cards that overlap, and cards that stick out of the grid. */
  overlaps: string[];
  outside: string[];
  gridWidth: number;
  mainWidth: number;
}

/** Reads the layout facts of the open dashboard. */
export async function layoutFacts(page: Page): Promise<LayoutFacts> {
  // The grid's scale and the frames' fit follow resize observers, which run before the next paint: read after two.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(() => {
    const grid = document.getElementById('grid')!.getBoundingClientRect();
    const main = document.getElementById('dashboard')!;
    const cards = [...document.querySelectorAll<HTMLElement>('#grid > .widget')];
    const rects = cards.map((c) => c.getBoundingClientRect());
    const overlaps: string[] = [];
    const outside: string[] = [];
    rects.forEach((r, i) => {
      if (r.left < grid.left - 1 || r.right > grid.right + 1) outside.push(cards[i]!.dataset.widgetId!);
      rects.forEach((q, j) => {
        if (j > i && r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1) {
          overlaps.push(`${cards[i]!.dataset.widgetId} × ${cards[j]!.dataset.widgetId}`);
        }
      });
    });
    const facts = cards.map((card) => {
      const title = card.querySelector<HTMLElement>('.widget-title');
      const head = card.querySelector<HTMLElement>('.widget-head');
      const body = card.querySelector<HTMLElement>('.widget-body')!.getBoundingClientRect();
      const frame = card.querySelector<HTMLIFrameElement>('.widget-body > iframe');
      const t = title?.getBoundingClientRect();
      const visibleBadges = [...card.querySelectorAll<HTMLElement>('.badge')].filter((b) => {
        const r = b.getBoundingClientRect();
        const box = b.parentElement!.getBoundingClientRect();
        return r.width > 0 && r.top < box.bottom - 1 && r.right <= box.right + 1;
      });
      const f = frame?.getBoundingClientRect();
      const doc = frame?.contentDocument?.documentElement;
      return {
        id: card.dataset.widgetId!,
        state: card.dataset.state!,
        title: title?.textContent ?? null,
        titleWhole: title ? title.scrollWidth <= title.clientWidth + 1 : true,
        titleShare: title && head ? title.clientWidth / (title.clientWidth + card.querySelector<HTMLElement>('.badges')!.clientWidth) : 1,
        badgesOverTitle: Boolean(t && visibleBadges.some((b) => b.getBoundingClientRect().left < t.right - 1)),
        hasHeader: head !== null,
        frame: frame
          ? { width: frame.offsetWidth, height: frame.offsetHeight, contextWidth: Number(frame.dataset.contextWidth), contextHeight: Number(frame.dataset.contextHeight), scale: Number(frame.dataset.scale) }
          : null,
        frameInside: !f || (f.left >= body.left - 1 && f.top >= body.top - 1 && f.right <= body.right + 1 && f.bottom <= body.bottom + 1),
        overflowX: doc ? doc.scrollWidth > doc.clientWidth + 1 : false,
        overflowY: doc ? doc.scrollHeight > doc.clientHeight + 1 : false,
      };
    });
    return { cards: facts, overlaps, outside, gridWidth: grid.width, mainWidth: main.clientWidth };
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page (not in the widget frames, which run no script) and returns serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[] }> } }).axe;
    const result = await axe.run(document, { iframes: false, resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
  });
}

const DOCS_SHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/**
 * Where the tests write screenshots: `docs/screenshots/` with `WEB_SCREENSHOTS=1`, else a folder in the
 * system's temporary directory (so every run takes them, and only a deliberate run changes the docs).
 */
export function screenshotPath(name: string): string {
  const dir = process.env.WEB_SCREENSHOTS ? DOCS_SHOTS : join(tmpdir(), 'trellis-web-screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
