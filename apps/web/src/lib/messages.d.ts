/** The catalogues the build makes (apps/web/vite-messages.ts). */
declare module 'virtual:messages/*' {
  import type { Messages } from '@pulsecheck/shared/i18n/translate';

  const messages: Messages;
  export default messages;
}
