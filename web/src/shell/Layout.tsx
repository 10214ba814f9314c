import { useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { ApiKeyDialog } from './ApiKeyDialog';
import { useConsole } from './context';
import { HealthBadge } from './HealthBadge';
import { CallerBadge } from './roles';
import { SchemaGate } from './SchemaGate';
import { applyTheme, initialTheme, type Theme } from './theme';

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
        <nav aria-label="Pages">
          <ul>
            {pages
              .filter((p) => p.nav)
              .map((p) => (
                <li key={p.id}>
                  <NavLink to={p.path.replace(/\/:[^/]+\?/g, '')} end={p.path === '/'}>
                    {p.title}
                  </NavLink>
                </li>
              ))}
          </ul>
        </nav>
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
      <main id="main" tabIndex={-1}>
        <SchemaGate>
          <Outlet />
        </SchemaGate>
      </main>
      <ApiKeyDialog />
    </>
  );
}
