import { ACTION_ITEM_MESSAGES } from '@pulsecheck/shared/action-items/schemas';
import type { ActionItem } from '@pulsecheck/shared/results/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { say } from '@/lib/i18n';
import { renderRoutes, stubFetch } from '@/test/render';
import { ActionItemDialog } from './action-item-dialog';

const CHECK = '11111111-1111-4111-8111-111111111111';
const MIRA = { id: 'u-mira', name: 'Mira Mention', email: 'mira@example.com' };
const OLU = { id: 'u-olu', name: 'Olu Owner', email: 'olu@example.com' };

/** Answers the members read with `members` once `release` is called; every other call with `answer`. */
function stubApi(answer: () => Response) {
  let release = () => {};
  const members = new Promise<void>((resolve) => (release = resolve));
  const fetch = stubFetch(async (url) => {
    if (url.endsWith('/members')) {
      await members;
      return Response.json({ members: [MIRA, OLU] });
    }
    return answer();
  });
  return { fetch, release };
}

function renderDialog(item?: ActionItem) {
  const dialog = (
    <ActionItemDialog
      healthCheckId={CHECK}
      components={[{ id: '22222222-2222-4222-8222-222222222222', title: 'Decisions' }]}
      item={item}
      open
      onOpenChange={() => {}}
    />
  );
  renderRoutes([{ path: '/', element: dialog }]);
  return within(screen.getByRole('dialog'));
}

describe('action item dialog', () => {
  it('names the missing fields in place, without moving focus or calling the server', async () => {
    const user = userEvent.setup();
    const api = stubApi(() => Response.json({}));
    const dialog = renderDialog();
    api.release();
    const submit = dialog.getByRole('button', { name: 'Add Action Item' });
    await user.click(submit);
    expect(await dialog.findByText(say(ACTION_ITEM_MESSAGES.descriptionRequired))).toHaveAttribute(
      'role',
      'alert',
    );
    expect(dialog.getByText(say(ACTION_ITEM_MESSAGES.ownerRequired))).toHaveAttribute('role', 'alert');
    expect(dialog.getByRole('combobox', { name: 'Description' })).toHaveAttribute('aria-invalid', 'true');
    expect(submit).toHaveFocus();
    expect(api.fetch).toHaveBeenCalledTimes(1);
  });

  it('replaces the typed word with a picked @mention and sends the mentioned ids; server field errors land on their fields', async () => {
    const user = userEvent.setup();
    const api = stubApi(() =>
      Response.json(
        {
          error: {
            code: 'invalid',
            message: ACTION_ITEM_MESSAGES.ownerOutside,
            fields: { ownerId: ACTION_ITEM_MESSAGES.ownerOutside },
          },
        },
        { status: 400 },
      ),
    );
    const dialog = renderDialog();
    api.release();
    const description = dialog.getByRole('combobox', { name: 'Description' });
    await user.type(description, 'Talk to @Mi');
    const suggestions = dialog.getByRole('listbox', { name: 'Mention suggestions' });
    await user.click(within(suggestions).getByRole('option', { name: /Mira Mention/ }));
    expect(description).toHaveValue('Talk to @Mira Mention ');
    expect(dialog.getByRole('list', { name: 'Mentioned Users' })).toHaveTextContent('Mira Mention');
    await user.selectOptions(dialog.getByLabelText('Owner'), OLU.id);
    await user.click(dialog.getByRole('button', { name: 'Add Action Item' }));

    expect(await dialog.findByText(say(ACTION_ITEM_MESSAGES.ownerOutside))).toHaveAttribute('role', 'alert');
    const [, init] = api.fetch.mock.calls.find(([url]) =>
      (url as string).endsWith('/action-items'),
    )! as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({
      description: 'Talk to @Mira Mention',
      ownerId: OLU.id,
      dueDate: null,
      status: 'pending',
      componentId: null,
      mentionedUserIds: [MIRA.id],
    });
    expect(dialog.getAllByRole('alert')).toHaveLength(1);
  });

  it('replaces the whole @word with the picked name in the middle of the text, and at its end', async () => {
    const user = userEvent.setup();
    const api = stubApi(() => Response.json({}));
    const dialog = renderDialog();
    api.release();
    const description = dialog.getByRole('combobox', { name: 'Description' });
    const pickMira = async () => {
      const suggestions = await dialog.findByRole('listbox', { name: 'Mention suggestions' });
      await user.click(within(suggestions).getByRole('option', { name: /Mira Mention/ }));
    };

    // In the middle: the caret after "@Mi" in "Talk to @Mi about it"; the text after the word stays as it was.
    await user.type(description, 'Talk to @M about it');
    await user.type(description, 'i', { initialSelectionStart: 10, initialSelectionEnd: 10 });
    await pickMira();
    expect(description).toHaveValue('Talk to @Mira Mention about it');
    await waitFor(() =>
      expect(description).toHaveProperty('selectionStart', 'Talk to @Mira Mention '.length),
    );

    // The caret inside a word ("@Mi|ra"): the whole word goes, not only the part before the caret.
    await user.clear(description);
    await user.type(description, 'Ask @Mra now');
    await user.type(description, 'i', { initialSelectionStart: 6, initialSelectionEnd: 6 });
    await pickMira();
    expect(description).toHaveValue('Ask @Mira Mention now');

    // At the end: one space follows the name, ready for the next word.
    await user.clear(description);
    await user.type(description, 'Pair with @mira');
    await pickMira();
    expect(description).toHaveValue('Pair with @Mira Mention ');
    expect(dialog.getByRole('list', { name: 'Mentioned Users' })).toHaveTextContent('Mira Mention');
  });

  it('shows the owner of an item being edited once the members have loaded', async () => {
    const item: ActionItem = {
      id: 'item-1',
      componentId: null,
      description: 'Agree with @Mira Mention',
      owner: OLU,
      dueDate: '2027-01-31',
      status: 'in-progress',
      completedAt: null,
      mentioned: [MIRA],
      tracker: null,
      createdAt: '2026-11-01T00:00:00Z',
      updatedAt: '2026-11-01T00:00:00Z',
    };
    const api = stubApi(() => Response.json({}));
    const dialog = renderDialog(item);
    expect(dialog.getByRole('list', { name: 'Mentioned Users' })).toHaveTextContent('Mira Mention');
    expect(dialog.getByLabelText('Due date')).toHaveValue('2027-01-31');
    expect(dialog.getByLabelText('Status')).toHaveValue('in-progress');
    api.release();
    await waitFor(() => expect(dialog.getByLabelText('Owner')).toHaveValue(OLU.id));
  });
});
