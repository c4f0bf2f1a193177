import type { TemplateSummary } from '@pulsecheck/shared/templates/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes, stubFetch } from '@/test/render';
import { TemplatesPage } from './templates-page';

const template = (
  id: string,
  title: string,
  type: TemplateSummary['type'],
  isGlobal: boolean,
): TemplateSummary => ({
  id,
  title,
  description: null,
  type,
  isGlobal,
  workspaceId: isGlobal ? null : 'w-1',
  createdAt: '2026-11-01T00:00:00Z',
});

const TEMPLATES = [
  template('hc', 'Team Health Check', 'health-check', true),
  template('wp', 'Weekly Pulse', 'loop', true),
  template('ours', 'Our Pulse', 'loop', false),
];

function renderTemplates(at: string) {
  const calls: { method: string; url: string }[] = [];
  stubFetch((url, init) => {
    calls.push({ method: init?.method ?? 'GET', url: new URL(url, 'http://x').pathname });
    return init?.method === 'DELETE' ? Response.json({ ok: true }) : Response.json({ templates: TEMPLATES });
  });
  renderRoutes([{ path: '/admin/templates', element: <TemplatesPage /> }], { at });
  return calls;
}

describe('Templates', () => {
  it('filters by kind, and leads each kind to its configure screen', async () => {
    const user = userEvent.setup();
    renderTemplates('/admin/templates?type=loop');
    expect(await screen.findByRole('article', { name: 'Weekly Pulse' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Loops' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('article', { name: 'Team Health Check' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Use Template Weekly Pulse' })).toHaveAttribute(
      'href',
      '/admin/templates/wp/configure',
    );
    expect(screen.getByRole('link', { name: /Create Loop from Scratch/ })).toHaveAttribute(
      'href',
      '/admin/configure-loop/new',
    );

    await user.click(screen.getByRole('button', { name: 'All Templates' }));
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'Use Template Team Health Check' })).toHaveAttribute(
      'href',
      '/admin/configure-health-check/hc',
    );
  });

  it('deletes a workspace loop template after confirmation; global ones have no delete', async () => {
    const user = userEvent.setup();
    const calls = renderTemplates('/admin/templates?type=loop');
    const ours = await screen.findByRole('article', { name: 'Our Pulse' });
    expect(within(ours).getByText('Workspace')).toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: 'Weekly Pulse' })).queryByRole('button', { name: /Delete/ }),
    ).toBeNull();
    await user.click(within(ours).getByRole('button', { name: 'Delete Our Pulse' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Our Pulse?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls).toContainEqual({ method: 'DELETE', url: '/api/templates/ours' }));
  });
});
