import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { moveFocus, parentHref, typeAhead, type TreeRow } from './treeRows';

/** Row height: at least 24 px per WCAG 2.2 target size, rows one under another. */
const ROW = 28;

/**
 * The explorer's tree (ARIA tree pattern, flat with aria-level/setsize/posinset): only the rows in view are in the
 * DOM, so a schema of 10,000 tables paints as fast as one of ten. One row is in the tab order; arrows, Home/End,
 * Right opens (or goes to the first child), Left closes (or goes to the parent), Enter opens the row's page, and
 * typing letters moves to the next row starting with them. Each row is a link (its URL opens in a new tab too).
 */
export function CatalogTree({ rows, label }: { rows: readonly TreeRow[]; label: string }) {
  const navigate = useNavigate();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [focusHref, setFocusHref] = useState<string | undefined>();
  const wantFocus = useRef(false);
  const typed = useRef({ text: '', at: 0 });
  const currentIdx = rows.findIndex((r) => r.current);
  const found = focusHref === undefined ? -1 : rows.findIndex((r) => r.href === focusHref);
  const focusIdx = found >= 0 ? found : Math.max(currentIdx, 0);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's hook is used as documented
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 10,
  });

  // The row the URL names scrolled into view when it changes (a deep link to one table of thousands).
  const currentHref = rows[currentIdx]?.href;
  useEffect(() => {
    if (currentIdx >= 0) virtual.scrollToIndex(currentIdx, { align: 'auto' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the URL's row changes
  }, [currentHref]);

  // Keyboard moves: the target row is rendered after scrolling, then focused.
  useEffect(() => {
    if (!wantFocus.current) return;
    let frames = 0;
    let raf = 0;
    const focus = () => {
      const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${focusIdx}"]`);
      if (el) {
        wantFocus.current = false;
        el.focus();
      } else if (frames++ < 10) raf = requestAnimationFrame(focus);
    };
    focus();
    return () => cancelAnimationFrame(raf);
  }, [focusIdx, focusHref]);

  const moveTo = (i: number) => {
    wantFocus.current = true;
    virtual.scrollToIndex(i, { align: 'auto' });
    setFocusHref(rows[i].href);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>, i: number) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const row = rows[i];
    if (e.key === 'ArrowRight' && row.expanded === false) {
      e.preventDefault();
      void navigate(row.href);
      return;
    }
    if (e.key === 'ArrowLeft' && row.expanded) {
      e.preventDefault();
      void navigate(parentHref(row.href));
      return;
    }
    const to = moveFocus(rows, i, e.key);
    if (to !== undefined) {
      e.preventDefault();
      moveTo(to);
      return;
    }
    if (e.key.length === 1 && e.key !== ' ') {
      const now = performance.now();
      const t = typed.current;
      t.text = now - t.at < 600 ? t.text + e.key : e.key;
      t.at = now;
      // A longer prefix may still match the focused row; one letter again moves on to the next.
      const hit = typeAhead(rows, t.text.length > 1 ? i - 1 + rows.length : i, t.text);
      if (hit !== undefined) {
        e.preventDefault();
        moveTo(hit);
      }
    }
  };

  return (
    <div
      ref={scrollRef}
      role="tree"
      aria-label={label}
      className="tree"
      style={{ height: `min(60vh, ${Math.max(rows.length, 1) * ROW}px)` }}
    >
      <div role="none" style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((vi) => {
          const r = rows[vi.index];
          return (
            <Link
              key={r.href}
              to={r.href}
              role="treeitem"
              data-index={vi.index}
              aria-level={r.level}
              aria-setsize={r.setSize}
              aria-posinset={r.posInSet}
              aria-expanded={r.expanded}
              aria-selected={r.current}
              aria-current={r.current ? 'page' : undefined}
              tabIndex={vi.index === focusIdx ? 0 : -1}
              onFocus={() => setFocusHref(r.href)}
              onKeyDown={(e) => onKeyDown(e, vi.index)}
              className="tree-row"
              style={{ top: vi.start, height: ROW, paddingLeft: 8 + (r.level - 1) * 18 }}
            >
              <span aria-hidden="true" className="tree-twisty">
                {r.expanded === undefined ? '' : r.expanded ? '▾' : '▸'}
              </span>
              {r.name}
              {r.kind && <span className="marker"> ({r.kind})</span>}
            </Link>
          );
        })}
      </div>
    </div>
  );
}
