// The part of Pa11y's API the browser tests use (the package ships no types).
declare module 'pa11y' {
  import type { Browser, Page } from 'puppeteer-core';
  type Issue = { code: string; type: 'error' | 'warning' | 'notice'; message: string; selector: string };
  type Options = {
    runners?: string[];
    standard?: 'WCAG2A' | 'WCAG2AA' | 'WCAG2AAA';
    browser?: Browser;
    page?: Page;
    actions?: string[];
    timeout?: number;
  };
  export default function pa11y(
    url: string,
    options?: Options,
  ): Promise<{ documentTitle: string; pageUrl: string; issues: Issue[] }>;
}
