import { applyDecorators } from '@nestjs/common';
import { TEXT_FORMATS, type TextFormat } from '@portfolio/contract/formatted-text';
import { type Lang, LANGUAGES, type Translations } from '@portfolio/contract/translations';
import { Transform, Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { Column, type ValueTransformer } from 'typeorm';

import { messageOption } from '../common/api-message.js';
import { OneOf, OptionalText } from '../common/validators.js';

/** `translations` is JSON text in one column; null (rows from before the column) reads as none. */
const json: ValueTransformer = {
  to: (value: unknown) => (value === undefined ? undefined : JSON.stringify(value ?? {})),
  from: (value: unknown) => (typeof value === 'string' && value ? JSON.parse(value) : {}),
};

/** The two columns of a translatable entity (see migration 1764300000000-translations). */
export const TranslationsColumn = () => Column({ type: 'text', nullable: true, transformer: json });
export const ContentLanguageColumn = () => Column({ type: 'varchar', length: 2, nullable: true });

/** `contentLanguage` in a body: one of LANGUAGES, or null / left out (detected from the text). */
export const ContentLanguage = () => OneOf(LANGUAGES, { optional: true });

/** `translations` in a body: null or an object with `en` and/or `ar`, each an object of the kind's text fields. */
export function TranslationsOf(versions: new () => object) {
  return applyDecorators(
    // An instance, not {}: class-transformer does not turn a value made by @Transform into the @Type class.
    Transform(({ value }) => (value === null ? new versions() : value)),
    IsOptional(),
    IsObject(messageOption('validation.translation')),
    ValidateNested(),
    Type(() => versions),
  );
}

/** One language's version inside `translations`: `en` and `ar`, each optional. */
export function VersionOf(fields: new () => object) {
  return applyDecorators(
    Transform(({ value }) => (value === null ? undefined : value)),
    IsOptional(),
    IsObject(messageOption('validation.translation')),
    ValidateNested(),
    Type(() => fields),
  );
}

/** A translated text field: like the field itself, optional, blank means not translated. */
export const TranslatedText = (maxLength: number) => OptionalText(maxLength);

/**
 * How an item's long texts are written (migration 1765410000000-text-format): 'plain' for every item
 * from before and every client that does not say, so their pages stay as they were; 'markdown'.
 */
export const TextFormatColumn = () => Column({ type: 'varchar', length: 10, default: 'plain' });
export const TextFormatOf = () => OneOf(TEXT_FORMATS, { optional: true });

export type { Lang, TextFormat, Translations };
