import { createHash, randomBytes } from 'node:crypto';

/** A random 256-bit secret, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

/** What the database stores instead of the token itself. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
