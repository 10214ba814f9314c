import { useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { preloadPage } from '../pages';
import { ApiKeyDialog } from './ApiKeyDialog';
import { useConsole } from './context';
import { HealthBadge } from './HealthBadge';
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
        {/* A side navigation: every page fits at any window width (a column beside the page, wrapped above it on
            narrow windows); plain links in the tab order. */}
        <nav aria-label="Pages" className="sidenav">
          <ul>
            {pages
              .filter((p) => p.nav)
              .map((p) => ({ ...p, to: p.path.replace(/\/:[^/]+\?/g, '') }))
              .map((p) => (
                <li key={p.id}>
                  <NavLink
                    to={p.to}
                    end={p.path === '/'}
                    // The page's chunk loads on the intent to open it (pointer over, or focus).
                    onPointerEnter={() => preloadPage(p.to)}
                    onFocus={() => preloadPage(p.to)}
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
