// Layout facts read from the harness page itself, for the browser tests: cards inside the grid and apart,
// frames inside their cards, drawn at scale 1 at the size of their cell and of what the function was told,
// titles not hidden by badges, badges and buttons inside their cards, and which frames' content overflows.
// Also waiting for the page to settle at its width, the accessibility check (axe-core injected into the page)
// and the screenshots the tests take.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export interface CardFacts {
  id: string;
  /** The widget's type (custom, text, metric, …). */
  type: string;
  state: string;
  title: string | null;
  /** Title text shown whole (not cut with an ellipsis). */
  titleWhole: boolean;
  /** Share of the room beside the Inspect button (title and badges) that the title has. */
  titleShare: number;
  /** Badges drawn over the title. */
  badgesOverTitle: boolean;
  hasHeader: boolean;
  /**
   * The frame's layout size, its size on screen (after any transform), the size of the content area its card
   * has (the card's body) and the size its function was told, in pixels; `scale` is on-screen over layout.
   */
  frame: {
    width: number;
    height: number;
    screenWidth: number;
    screenHeight: number;
    bodyWidth: number;
    bodyHeight: number;
    contextWidth: number;
    contextHeight: number;
    scale: number;
  } | null;
  /** The frame's box on screen lies inside the card's body. */
  frameInside: boolean;
  /** Badges and buttons of the card's own chrome (title bar, tools) whose box leaves the card. */
  chromeOutside: string[];
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

/**
 * Waits until every widget has settled (ready, error or placeholder) and the harness has been told the page's
 * dashboard width (widgets that run again on resize have run, and been read).
 */
export async function settledAtWidth(page: Page, timeout = 60_000): Promise<void> {
  // A change of width reaches the page through a resize observer, before the next paint: wait for two.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.waitForFunction(
    () => {
      const grid = document.getElementById('grid')!;
      const cards = [...document.querySelectorAll<HTMLElement>('#grid > .widget')];
      return (
        cards.length > 0 &&
        grid.dataset.width !== undefined &&
        grid.dataset.dashboardWidth === grid.dataset.width &&
        cards.every((c) => c.dataset.state !== 'loading' && !c.hasAttribute('aria-busy'))
      );
    },
    null,
    { timeout, polling: 100 },
  );
}

/** Reads the layout facts of the open dashboard. */
export async function layoutFacts(page: Page): Promise<LayoutFacts> {
  // The layout follows resize observers, which run before the next paint: read after two.
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
      const box = card.getBoundingClientRect();
      const bodyEl = card.querySelector<HTMLElement>('.widget-body')!;
      const chromeOutside = [...card.querySelectorAll<HTMLElement>('.badge, .widget-head button, .widget-tools button')]
        .filter((el) => el.getClientRects().length > 0)
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
        })
        .map((el) => `${el.className} "${el.textContent}"`);
      return {
        id: card.dataset.widgetId!,
        type: [...card.classList].find((c) => c.startsWith('widget-'))?.slice('widget-'.length) ?? '',
        state: card.dataset.state!,
        title: title?.textContent ?? null,
        titleWhole: title ? title.scrollWidth <= title.clientWidth + 1 : true,
        titleShare: title && head ? title.clientWidth / (title.clientWidth + card.querySelector<HTMLElement>('.badges')!.clientWidth) : 1,
        badgesOverTitle: Boolean(t && visibleBadges.some((b) => b.getBoundingClientRect().left < t.right - 1)),
        hasHeader: head !== null,
        frame:
          frame && f
            ? {
                width: frame.offsetWidth,
                height: frame.offsetHeight,
                screenWidth: f.width,
                screenHeight: f.height,
                bodyWidth: bodyEl.clientWidth,
                bodyHeight: bodyEl.clientHeight,
                contextWidth: Number(frame.dataset.contextWidth),
                contextHeight: Number(frame.dataset.contextHeight),
                scale: frame.offsetWidth > 0 ? f.width / frame.offsetWidth : 0,
              }
            : null,
        chromeOutside,
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
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            options: unknown,
          ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[] }>;
        };
      }
    ).axe;
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
