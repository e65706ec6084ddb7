import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import './styles.css';
import { MantineProvider, createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app.js';

// WCAG 2.1 AA contrast (1.4.3, checked by axe in the tests): Mantine's teal is 2.6:1 under white
// text at shade 6, so the brand is a darker teal whose filled shade (7, 5.0:1) and hover shade
// (8) both pass; the dimmed text is gray 7 (Mantine's gray 6 is 3.3:1 on white).
const brand: MantineColorsTuple = ['#e6fcf5', '#c3fae8', '#96f2d7', '#63e6be', '#38d9a9', '#20c997', '#0c8f6a', '#087f5b', '#076e50', '#065f46'];
const theme = createTheme({ colors: { brand }, primaryColor: 'brand', primaryShade: 7, defaultRadius: 'md' });
// The light variant (badges, alerts, secondary buttons) draws shade 9 on a 10% tint, about 4.4:1:
// on shade 0 instead (4.8:1); outline text in shade 9 rather than 6.
const COLORS = ['brand', 'teal', 'red', 'green', 'yellow', 'orange', 'blue', 'gray', 'grape', 'violet', 'cyan', 'indigo', 'pink', 'lime', 'dark'];
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Light text: shade 9 is still 2.8:1 for yellow and 4.1:1 for green on their tint; 30% darker passes (>= 5:1).
    ...Object.fromEntries(
      COLORS.flatMap((c) => [
        [`--mantine-color-${c}-light`, `var(--mantine-color-${c}-0)`],
        [`--mantine-color-${c}-light-color`, `color-mix(in srgb, var(--mantine-color-${c}-9), black 30%)`],
        [`--mantine-color-${c}-outline`, `var(--mantine-color-${c}-9)`],
      ]),
    ),
  },
  dark: {},
});
// The SDK already retries network errors, 429 and 503 (never a POST without its key).
const queries = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={contrast}>
      <QueryClientProvider client={queries}>
        <BrowserRouter basename="/dashboard">
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
