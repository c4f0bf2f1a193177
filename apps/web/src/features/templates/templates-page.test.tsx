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
  canChange: !isGlobal,
});

const TEMPLATES = [
  template('hc', 'Team Health Check', 'health-check', true),
  template('wp', 'Weekly Pulse', 'loop', true),
  template('ours', 'Our Pulse', 'loop', false),
  template('mine', 'Our Check', 'health-check', false),
  { ...template('theirs', 'Their Check', 'health-check', false), canChange: false },
];

function renderTemplates(at: string) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  stubFetch((url, init) => {
    calls.push({
      method: init?.method ?? 'GET',
      url: new URL(url, 'http://x').pathname,
      ...(init?.body ? { body: JSON.parse(init.body as string) as unknown } : {}),
    });
    return init?.method === 'DELETE' || init?.method === 'PATCH'
      ? Response.json({ ok: true, id: 'mine' })
      : Response.json({ templates: TEMPLATES });
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
    expect(screen.getAllByRole('article')).toHaveLength(TEMPLATES.length);
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

  it('gives a workspace health-check template Edit (name, description) and Delete for those who may', async () => {
    const user = userEvent.setup();
    const calls = renderTemplates('/admin/templates?type=health-check');
    const mine = await screen.findByRole('article', { name: 'Our Check' });
    expect(within(mine).getByText('Workspace')).toBeInTheDocument();
    const theirs = screen.getByRole('article', { name: 'Their Check' });
    expect(within(theirs).queryByRole('button', { name: /Edit|Delete/ })).toBeNull();
    const global = screen.getByRole('article', { name: 'Team Health Check' });
    expect(within(global).queryByRole('button', { name: /Edit|Delete/ })).toBeNull();

    await user.click(within(mine).getByRole('button', { name: 'Edit Our Check' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Our Check' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Our Check');
    await user.clear(name);
    await user.type(name, 'Renamed Check');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Ours');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls).toContainEqual({
        method: 'PATCH',
        url: '/api/templates/mine',
        body: { title: 'Renamed Check', description: 'Ours' },
      }),
    );

    await user.click(within(mine).getByRole('button', { name: 'Delete Our Check' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Our Check?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(calls).toContainEqual({ method: 'DELETE', url: '/api/templates/mine' }));
  });
});
