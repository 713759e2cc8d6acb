import { Bool } from './validators.js';

/** `?includeDeleted=true`: admins' lists of soft-deleting resources with the deleted items too. */
export class IncludeDeletedQuery {
  @Bool({ optional: true })
  includeDeleted?: boolean;
}
