import { CONTENT_KINDS, type ContentKind } from '@portfolio/contract/kinds';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';

import { CreateContactDto } from '../contacts/dto/create-contact.dto.js';
import { KIND_FEATURES } from '../kind-modules.js';
import { UpdateSettingsDto } from '../settings/dto/update-settings.dto.js';
import { isStoredFilePath, sniffFileType, storedFileType } from '../uploads/sniff.js';
import { CreateAdminUserDto } from '../users/dto/create-admin-user.dto.js';

/**
 * What a restore checks besides checksums: an archive is written by this product, but it is a file
 * anyone may have edited, so it gets no more than the API's own doors would let in.
 */

const CONTENT_DTOS: Record<ContentKind, new () => object> = Object.fromEntries(
  CONTENT_KINDS.map((kind) => [kind, KIND_FEATURES[kind].createDto]),
) as Record<ContentKind, new () => object>;

/** The body each table's rows came through: its limits are the rows' limits. */
const ROW_DTOS: Record<string, new () => object> = {
  ...CONTENT_DTOS,
  contacts: CreateContactDto,
  admin_users: CreateAdminUserDto,
  site_settings: UpdateSettingsDto,
};

/** The rules that bound a value's size (not its shape, which older versions may have checked differently). */
const SIZE_RULES = new Set(['maxLength', 'arrayMaxSize', 'max', 'min']);

function sizeProblems(errors: ValidationError[], prefix = '', out: string[] = []): string[] {
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    for (const [rule, message] of Object.entries(error.constraints ?? {})) if (SIZE_RULES.has(rule)) out.push(`${field}: ${message}`);
    if (error.children?.length) sizeProblems(error.children, field, out);
  }
  return out;
}

async function limitsBroken(dto: new () => object, value: unknown): Promise<string[]> {
  if (!value || typeof value !== 'object') return [];
  const errors = await validate(plainToInstance(dto, value) as object, {
    skipMissingProperties: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  return sizeProblems(errors);
}

/** Fields of a row beyond the API's limits for them (a revision's snapshot by its kind's), as `field: message`. */
export async function rowLimitsBroken(table: string, row: Record<string, unknown>): Promise<string[]> {
  const dto = ROW_DTOS[table];
  if (dto) return limitsBroken(dto, row);
  if (table === 'content_revisions') {
    const kindDto = CONTENT_DTOS[row.kind as ContentKind];
    if (!kindDto) return [`kind: not a content kind (${JSON.stringify(row.kind)})`];
    return (await limitsBroken(kindDto, row.snapshot)).map((p) => `snapshot.${p}`);
  }
  return [];
}

/**
 * Why an uploaded file of an archive may not be restored, or null: the upload rules (a known folder,
 * a name the server makes, and bytes of the type that name says), so a restore cannot plant a page.
 */
export function uploadRefusal(entryName: string, head: Buffer): string | null {
  const rel = entryName.slice('uploads/'.length);
  if (!isStoredFilePath(rel))
    return `${entryName} is not a file the API stores (uploads are images or PDFs under a known folder, with names the server makes)`;
  const sniffed = sniffFileType(head);
  if (!sniffed || sniffed !== storedFileType(rel)) {
    return `${entryName} does not hold what its name says (its bytes are ${sniffed ? sniffed.mime : 'not an image or PDF'})`;
  }
  return null;
}
