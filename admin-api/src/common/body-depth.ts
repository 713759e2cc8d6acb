import type { NextFunction, Request, Response } from 'express';

/** Deeper than any body the API accepts (its deepest is an object holding a list of strings). */
export const MAX_BODY_DEPTH = 32;

/**
 * Refuses JSON nested deeper than MAX_BODY_DEPTH before validation walks it: class-transformer
 * recurses once per level, so a few thousand levels would overflow the stack (a 500). Walked
 * with an explicit stack, so the check itself cannot overflow.
 */
export function rejectDeepBodies(req: Request, _res: Response, next: NextFunction) {
  const body: unknown = req.body;
  if (body === null || typeof body !== 'object') return next();
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (depth > MAX_BODY_DEPTH) {
      return next(
        Object.assign(new Error('The request body is nested too deeply'), { type: 'entity.too.deep', status: 400, expose: true }),
      );
    }
    for (const child of Object.values(value as object)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  next();
}
