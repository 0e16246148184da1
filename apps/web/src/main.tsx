// First: the page's CSP settings, before anything could inject a style or parse with zod.
import './csp-setup';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadRoute } from './app/router';
import { startI18n } from './lib/i18n';
import { startTheme } from './lib/theme';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// The remembered (or the system's) theme is on <html> before the first frame React draws.
startTheme();
preloadRoute(window.location.pathname);
// English draws at once; another language first loads its messages (one small chunk).
void startI18n().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
