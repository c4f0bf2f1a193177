import { z } from 'zod';
import { MAIL_STATES, type Mailed } from './delivery';

export const mailStateSchema = z.enum(MAIL_STATES);

/** See `Mailed` (delivery.ts). */
export const mailedSchema = z.object({
  ok: z.literal(true),
  mail: mailStateSchema,
}) satisfies z.ZodType<Mailed>;
