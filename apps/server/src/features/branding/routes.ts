import { z } from '@hono/zod-openapi';
import {
  BRANDING_MESSAGES,
  brandingResponseSchema,
  LOGO_MAX_BYTES,
  updateBrandingSchema,
} from '@pulsecheck/shared/branding/rules';
import { bodyLimit } from 'hono/body-limit';
import { auditBy } from '../../audit/record';
import { requireUser } from '../../auth/session';
import { AppError } from '../../lib/app-error';
import { routes } from '../../lib/openapi';
import * as service from './service';

const branding = routes('branding');

// Room for the multipart envelope around a logo of the largest allowed size.
branding.router.use(
  '/organization/branding/logo',
  bodyLimit({
    maxSize: LOGO_MAX_BYTES + 64 * 1024,
    onError: () => {
      throw new AppError('payload_too_large', BRANDING_MESSAGES.logoTooLarge, {
        logo: BRANDING_MESSAGES.logoTooLarge,
      });
    },
  }),
);

branding
  .call(
    'get /organization/branding',
    "The organisation's logo and accent colour (its owner and organisation admins)",
    { ok: [200, brandingResponseSchema, 'Branding'], errors: [403, 404] },
    service.getBranding,
  )
  .call(
    'put /organization/branding',
    'Save the accent colour (#rrggbb; white text on it must reach 4.5:1) or remove it with null',
    { body: updateBrandingSchema, ok: [200, brandingResponseSchema, 'Saved'], errors: [403, 404] },
    service.updateBranding,
  )
  .handle(
    'post /organization/branding/logo',
    'Upload the logo (multipart field "logo"): PNG, JPEG or WebP by content (never SVG), at most 512 KB',
    {
      form: z.object({ logo: z.any().openapi({ type: 'string', format: 'binary' }) }),
      ok: [200, brandingResponseSchema, 'Stored'],
      errors: [401, 403, 404, 413],
    },
    async (c) => {
      const user = await requireUser(c);
      // Read only once the caller may change the branding: the service asks the policy first.
      const read = async () => {
        const form = await c.req.parseBody().catch(() => null);
        const logo = form?.logo;
        return logo instanceof File ? new Uint8Array(await logo.arrayBuffer()) : null;
      };
      return c.json(
        await service.uploadLogo(c.get('deps'), { userId: user.id, read, by: auditBy(c, user) }),
        200,
      );
    },
  )
  .call(
    'delete /organization/branding/logo',
    'Remove the logo',
    { ok: [200, brandingResponseSchema, 'Removed'], errors: [403, 404] },
    service.removeLogo,
  )
  .handle(
    'get /organization-logos/{logoId}',
    "An organisation's logo, public (participants' screens and e-mails show it); ids change with every upload, so it caches for good",
    { public: true, ok: [200, z.any(), 'The image', 'image/*'] },
    async (c) => {
      const { logoId } = c.req.valid('param');
      const etag = `"${logoId}"`;
      c.header('Cache-Control', 'public, max-age=31536000, immutable');
      c.header('ETag', etag);
      c.header('X-Content-Type-Options', 'nosniff');
      if (c.req.header('if-none-match') === etag) return c.body(null, 304);
      const logo = await service.getLogo(c.get('deps'), logoId);
      c.header('Content-Type', logo.contentType);
      c.header('Content-Disposition', 'inline');
      c.header('Content-Security-Policy', "default-src 'none'; sandbox");
      return c.body(new Uint8Array(logo.data), 200);
    },
  );

export const brandingRoutes = branding.router;
