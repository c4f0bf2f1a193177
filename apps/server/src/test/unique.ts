import { randomBytes } from 'node:crypto';

/** Values no other test (or earlier run on the same database) has used. */
export const unique = (prefix = 'user') => `${prefix}-${randomBytes(5).toString('hex')}`;
export const uniqueEmail = (prefix = 'user') => `${unique(prefix)}@example.com`;
export const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
