import { useEffect, useMemo, useRef, useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { preloadPage } from '../pages';
import { ApiKeyDialog } from './ApiKeyDialog';
import { useConsole } from './context';
import { HealthBadge } from './HealthBadge';
import { runWhenIdle } from './idle';
import { CallerBadge } from './roles';
import { SchemaGate } from './SchemaGate';
import { applyTheme, initialTheme, type Theme } from './theme';
import './layout.css';

export function Layout() {
  const { pages } = useConsole();
  const [theme, setTheme] = useState<Theme>(() => {
    const t = initialTheme();
    applyTheme(t);
    return t;
  });
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  const navPages = useMemo(
    () => pages.filter((p) => p.nav).map((p) => ({ ...p, to: p.path.replace(/\/:[^/]+\?/g, '') })),
    [pages],
  );
  // Once the shell is up, the chunks of the pages in the navigation load one per idle moment: opening one then
  // needs no fetch (a link's chunk also loads at once on the intent to open it: pointer over, or focus).
  useEffect(() => runWhenIdle(navPages.map((p) => () => preloadPage(p.to))), [navPages]);
  // Narrow windows: the navigation folds behind a menu button (open/closed here; CSS decides when it folds).
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Lakeward</span>
        <span className="topbar-fill" />
        <HealthBadge />
        <CallerBadge />
        <button
          type="button"
          onClick={() => {
            applyTheme(next);
            setTheme(next);
          }}
        >
          {next === 'dark' ? 'Dark theme' : 'Light theme'}
        </button>
      </header>
      <div className="frame">
        {/* A side navigation: a column beside the page; on narrow windows a menu button above the page that opens
            the list (Escape closes it and returns to the button, a link closes it); plain links in the tab order. */}
        <nav aria-label="Pages" className={menuOpen ? 'sidenav open' : 'sidenav'}>
          <button
            ref={menuButton}
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="sidenav-pages"
            onClick={() => setMenuOpen((o) => !o)}
          >
            Menu
          </button>
          <ul id="sidenav-pages">
            {navPages.map((p) => (
              <li key={p.id}>
                <NavLink
                  to={p.to}
                  end={p.path === '/'}
                  onPointerEnter={() => preloadPage(p.to)}
                  onFocus={() => preloadPage(p.to)}
                  onClick={() => setMenuOpen(false)}
                >
                  {p.title}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <SchemaGate>
            <Outlet />
          </SchemaGate>
        </main>
      </div>
      <ApiKeyDialog />
    </>
  );
}
