import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ROUTE_MODULES } from './route-modules';
import { routes } from './router';

type LazyRoute = { path: string; lazies: (() => Promise<{ Component?: ComponentType | null }>)[] };

/** Every URL pattern of the router that loads code on demand, with the lazy loaders along its branch. */
function lazyRoutes(list: RouteObject[], parent = '', lazies: LazyRoute['lazies'] = []): LazyRoute[] {
  return list.flatMap((route) => {
    const path =
      route.path === undefined
        ? parent
        : route.path.startsWith('/')
          ? route.path
          : `${parent.replace(/\/$/, '')}/${route.path}`;
    const lazy = route.lazy;
    if (lazy !== undefined && typeof lazy !== 'function') throw new Error(`${path}: lazy is not a function`);
    const chain = lazy ? [...lazies, lazy as LazyRoute['lazies'][number]] : lazies;
    const own =
      (route.path !== undefined || route.index) && chain.length > 0 ? [{ path, lazies: chain }] : [];
    return [...own, ...lazyRoutes(route.children ?? [], path, chain)];
  });
}

describe('ROUTE_MODULES (the modulepreload hints)', () => {
  const found = new Map(lazyRoutes(routes).map((route) => [route.path, route]));

  it('names exactly the URL patterns whose screens the router loads on demand', () => {
    expect(Object.keys(ROUTE_MODULES).sort()).toEqual([...found.keys()].sort());
  });

  it('names, for each pattern, the modules whose components the router shows there, outermost first', async () => {
    for (const [path, modules] of Object.entries(ROUTE_MODULES)) {
      const route = found.get(path);
      if (!route) continue;
      expect(modules, path).toHaveLength(route.lazies.length);
      for (const [i, lazy] of route.lazies.entries()) {
        const { Component } = await lazy();
        const exports = (await import(/* @vite-ignore */ `../../${modules[i]}`)) as Record<string, unknown>;
        expect(Object.values(exports), `${path}: ${modules[i]}`).toContain(Component);
      }
    }
  }, 60_000);
});
