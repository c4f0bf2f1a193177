import { TEAM_MESSAGES, type Member } from '@pulsecheck/shared/team/schemas';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { currentUser } from '@/test/fixtures';
import { renderRoutes, stubFetch } from '@/test/render';
import { InviteDialog } from './member-dialogs';
import { StatusBadge } from './team-page';
import { say, t } from '@/lib/i18n';

/** The team screens when the server sends no e-mail (MAIL_DISABLED): 'Email failed', never "sent". */

const WORKSPACE = '44444444-4444-4444-8444-444444444444';
const REASON = 'E-mail is switched off on this server (MAIL_DISABLED=true)';
const invited = (delivery: 'pending' | 'sent' | 'failed'): Member => ({
  id: 'm-1',
  userId: null,
  name: null,
  email: 'ivy@example.com',
  role: 'Engineer',
  access: 'member',
  status: 'pending',
  department: null,
  avatarUrl: null,
  organizationRole: null,
  invitation: {
    sentAt: '2026-11-23T10:00:00Z',
    expiresAt: '2026-11-30T10:00:00Z',
    expired: false,
    delivery,
    deliveryError: delivery === 'failed' ? REASON : null,
  },
});

function renderInvite(mailEnabled: boolean, answer: Member) {
  stubFetch((url) =>
    url.endsWith('/invitations')
      ? Response.json({ member: answer }, { status: 201 })
      : Response.json({ departments: [] }),
  );
  const screenWithToasts = (
    <>
      <Toaster />
      <InviteDialog workspaceId={WORKSPACE} open onOpenChange={() => {}} />
    </>
  );
  renderRoutes([{ path: '/', element: screenWithToasts }], {
    seed: [[['session'], currentUser({ activeWorkspaceId: WORKSPACE, mailEnabled })]],
  });
}

async function sendInvitation() {
  const user = userEvent.setup();
  const dialog = within(screen.getByRole('dialog'));
  await user.type(dialog.getByLabelText('Email'), 'ivy@example.com');
  await user.type(dialog.getByLabelText(/^Role/), 'Engineer');
  await user.click(dialog.getByRole('button', { name: 'Send Invitation' }));
}

describe('team screens without e-mail', () => {
  it("badges an invitation whose e-mail failed 'Email failed'", () => {
    render(<StatusBadge member={invited('failed')} />);
    expect(screen.getByText('Email failed')).toBeInTheDocument();
    cleanup();
    render(<StatusBadge member={invited('sent')} />);
    expect(screen.getByText('Pending')).toBeInTheDocument();
  });

  it('says before inviting that no link is e-mailed, and after it that the invitation was not e-mailed', async () => {
    renderInvite(false, invited('failed'));
    expect(screen.getByRole('dialog')).toHaveAccessibleDescription(say(TEAM_MESSAGES.invitationsNotEmailed));
    await sendInvitation();
    expect(
      await screen.findByText(
        `${t(TEAM_MESSAGES.invitationNotEmailed, { email: 'ivy@example.com' })}. ${REASON}`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Invitation sent/)).not.toBeInTheDocument();
  });

  it('says the invitation was sent when e-mail is on', async () => {
    renderInvite(true, invited('pending'));
    expect(screen.getByRole('dialog')).toHaveAccessibleDescription(
      'We will email them a link to join this workspace. It expires after 7 days.',
    );
    await sendInvitation();
    expect(await screen.findByText('Invitation sent to ivy@example.com')).toBeInTheDocument();
  });
});
