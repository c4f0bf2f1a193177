import { WEBHOOK_MESSAGES, type Webhook, type WebhookDelivery } from '@pulsecheck/shared/webhooks/events';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { say } from '@/lib/i18n';
import { renderRoutes, stubFetch } from '@/test/render';
import { WebhooksCard } from './webhooks-card';

const WORKSPACE = '00000000-0000-4000-8000-0000000000aa';
const hook: Webhook = {
  id: '00000000-0000-4000-8000-0000000000bb',
  workspaceId: WORKSPACE,
  url: 'https://hooks.example.com/pulsecheck',
  events: ['member.joined'],
  paused: false,
  pausedReason: null,
  createdAt: '2026-11-28T12:00:00.000Z',
};
const delivery: WebhookDelivery = {
  id: '00000000-0000-4000-8000-0000000000cc',
  eventId: '00000000-0000-4000-8000-0000000000dd',
  type: 'webhook.test',
  status: 'delivered',
  createdAt: '2026-11-28T12:01:00.000Z',
  attempts: [{ at: '2026-11-28T12:01:01.000Z', ok: true, statusCode: 200, error: null }],
};

function renderCard() {
  renderRoutes([
    {
      path: '/',
      element: <WebhooksCard scope={{ kind: 'workspace', id: WORKSPACE }} title="Webhooks: Acme" />,
    },
  ]);
}

describe('the Webhooks card', () => {
  it('asks for at least one event, then shows the secret once and the new webhook', async () => {
    const user = userEvent.setup();
    let hooks: Webhook[] = [];
    const posted: unknown[] = [];
    stubFetch((url, init) => {
      if (init?.method === 'POST') {
        posted.push(JSON.parse(init.body as string));
        hooks = [hook];
        return Response.json({ webhook: hook, secret: 'whsec_abc' }, { status: 201 });
      }
      return Response.json({ webhooks: hooks });
    });
    renderCard();
    expect(await screen.findByText(say(WEBHOOK_MESSAGES.none))).toBeVisible();
    await user.type(screen.getByLabelText(say(WEBHOOK_MESSAGES.url)), hook.url);
    await user.click(screen.getByRole('button', { name: say(WEBHOOK_MESSAGES.add) }));
    expect(await screen.findByText(say(WEBHOOK_MESSAGES.eventsRequired))).toBeVisible();
    expect(posted).toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: /Someone joins the workspace/ }));
    await user.click(screen.getByRole('button', { name: say(WEBHOOK_MESSAGES.add) }));
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_abc');
    expect(screen.getByText(say(WEBHOOK_MESSAGES.secretOnce))).toBeVisible();
    expect(posted).toEqual([{ url: hook.url, events: ['member.joined'] }]);
    const list = await screen.findByRole('list', { name: 'Webhooks: Acme' });
    expect(within(list).getByText(hook.url)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('webhook-secret')).not.toBeInTheDocument();
  });

  it("lists a webhook's deliveries with their response code, and sends one again", async () => {
    const user = userEvent.setup();
    const asked: string[] = [];
    stubFetch((url) => {
      asked.push(url);
      if (url.endsWith('/deliveries')) return Response.json({ deliveries: [delivery] });
      if (url.endsWith('/resend')) return Response.json({ deliveryId: 'x' }, { status: 202 });
      return Response.json({ webhooks: [hook] });
    });
    renderCard();
    await user.click(await screen.findByRole('button', { name: say(WEBHOOK_MESSAGES.deliveries) }));
    const row = await screen.findByTestId('delivery');
    expect(row).toHaveTextContent('webhook.test');
    expect(row).toHaveTextContent('Delivered');
    expect(row).toHaveTextContent('response 200');
    await user.click(within(row).getByRole('button', { name: /^Send again: webhook\.test/ }));
    await waitFor(() =>
      expect(asked.some((url) => url.endsWith(`/deliveries/${delivery.id}/resend`))).toBe(true),
    );
  });
});
