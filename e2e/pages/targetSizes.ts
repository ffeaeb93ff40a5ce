import type { Page } from "@playwright/test";

/** WCAG 2.2's minimum target (2.5.8): 24 by 24 CSS px. */
export const MIN_TARGET = 24;
/** The buttons a reviewer presses over and over: a thumb's 44 px. */
export const REVIEW_TARGET = 44;

/** What may be pressed: links, buttons, form controls and anything acting as a button. */
export const TARGETS =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"]';

/** The relabel buttons of the trace page's review panel and of the queue. */
export const REVIEW_BUTTONS =
  '[data-testid="review-field"] fieldset button, [data-testid="queue-panel"] fieldset button';

/**
 * Controls that stand alone, outside running text, held to 24 × 24 px with no spacing exception:
 * the header's links, a term chip's ×, a fixture's id link, the set description's "edit".
 */
export const ALONE =
  'header a, [data-testid="remove-term"], [data-testid="fixture-row"] a, [data-testid="flip-item"] a, [data-testid="set-description"] button';

/** A re-run's flip links: on a page only once a fixture flipped. */
export const FLIP_LINKS = '[data-testid="flip-item"] a';

/**
 * Targets on the page smaller than 24 × 24 px that the spacing exception does not cover (a
 * 24 px circle centred on the target meets no other target, nor another small target's circle),
 * each as "what: W×H" (a target scrolled out of a box that clips it is not there); controls that stand alone (ALONE) under 24 × 24 px whatever their spacing;
 * and review buttons under 44 px tall. Hidden, disabled and screen-reader-only
 * (1 px) elements are no targets.
 */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(
    ({ TARGETS, ALONE, REVIEW_BUTTONS, MIN_TARGET, REVIEW_TARGET }) => {
      const out: string[] = [];
      const what = (el: Element) => {
        const id = el.getAttribute("data-testid");
        const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().replace(/\s+/g, " ");
        return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ""} "${text.slice(0, 40)}"`;
      };
      const shown = (el: Element) => {
        if ((el as HTMLButtonElement).disabled) return false;
        // In a closed <details> (content-visibility: hidden) an element still has a box.
        if (!el.checkVisibility({ visibilityProperty: true })) return false;
        if (el.closest("[inert], [aria-hidden='true']")) return false;
        const s = getComputedStyle(el);
        if (s.visibility === "hidden" || s.display === "none") return false;
        const r = el.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) return false;
        // Scrolled out of a box that clips it: it is reached by scrolling that box, away from here.
        for (let a = el.parentElement; a; a = a.parentElement) {
          const st = getComputedStyle(a);
          if (st.overflowX === "visible" && st.overflowY === "visible") continue;
          const c = a.getBoundingClientRect();
          if (r.bottom <= c.top || r.top >= c.bottom || r.right <= c.left || r.left >= c.right) return false;
        }
        return true;
      };
      const els = [...document.querySelectorAll(TARGETS)].filter(shown);
      const rects = els.map((el) => el.getBoundingClientRect());
      const small = rects.map((r) => r.width < MIN_TARGET - 0.5 || r.height < MIN_TARGET - 0.5);
      const centre = (r: DOMRect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
      const radius = MIN_TARGET / 2;
      for (let i = 0; i < els.length; i++) {
        if (!small[i]) continue;
        const c = centre(rects[i]);
        let clash: Element | null = null;
        for (let j = 0; j < els.length && !clash; j++) {
          if (j === i || els[i].contains(els[j]) || els[j].contains(els[i])) continue;
          const r = rects[j];
          if (small[j]) {
            const d = centre(r);
            if (Math.hypot(c.x - d.x, c.y - d.y) < MIN_TARGET - 0.5) clash = els[j];
          } else {
            const dx = Math.max(r.left - c.x, 0, c.x - r.right);
            const dy = Math.max(r.top - c.y, 0, c.y - r.bottom);
            if (Math.hypot(dx, dy) < radius - 0.5) clash = els[j];
          }
        }
        if (clash)
          out.push(
            `${what(els[i])}: ${Math.round(rects[i].width)}×${Math.round(rects[i].height)} px, too near ${what(clash)}`,
          );
      }
      for (const el of document.querySelectorAll(ALONE)) {
        const r = el.getBoundingClientRect();
        if (r.width > 1 && (r.width < MIN_TARGET - 0.5 || r.height < MIN_TARGET - 0.5))
          out.push(
            `${what(el)}: ${Math.round(r.width)}×${Math.round(r.height)} px (at least ${MIN_TARGET}×${MIN_TARGET})`,
          );
      }
      for (const el of document.querySelectorAll(REVIEW_BUTTONS)) {
        const r = el.getBoundingClientRect();
        if (r.width > 1 && r.height < REVIEW_TARGET - 0.5)
          out.push(`review button ${what(el)}: ${Math.round(r.height)} px tall (at least ${REVIEW_TARGET})`);
      }
      return out;
    },
    { TARGETS, ALONE, REVIEW_BUTTONS, MIN_TARGET, REVIEW_TARGET },
  );
}
