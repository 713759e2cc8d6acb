import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';

import type { AdminUser } from './admin-user.entity.js';

/** Who is asking: an admin with a valid session, or nobody (anonymous visitor). */
export interface AuthContext {
  user: AdminUser;
  /** Hash of the bearer token: the admin_sessions row id. */
  sessionId: string;
}
export type Viewer = AuthContext | null;

export const IS_PUBLIC = 'isPublic';
/** Open to anonymous visitors; an admin's valid token still identifies them (visibility, audit). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export const CurrentAuth = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Viewer => ctx.switchToHttp().getRequest().user ?? null,
);
