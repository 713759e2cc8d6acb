import { applyDecorators } from '@nestjs/common';
import type { MessageKey } from '@portfolio/contract/messages';
import { isEmailAddress, isWebLink } from '@portfolio/contract/rules';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  ValidationArguments,
  ValidationOptions,
} from 'class-validator';

import { type LabelKey, messageOption } from './api-message.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const emptyToNull = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim();
  return v === '' ? null : v;
};
const numericString = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

/** A required text field: present, a string, not blank after trimming (`required` says so otherwise). */
export function RequiredText(maxLength: number, required: MessageKey) {
  return applyDecorators(
    Transform(trim),
    IsDefined(messageOption(required)),
    IsString(messageOption(required)),
    IsNotEmpty(messageOption(required)),
    MaxLength(maxLength, messageOption('validation.maxLength', { max: maxLength })),
  );
}

/** An optional text field; blank means cleared (null). */
export function OptionalText(maxLength: number) {
  return applyDecorators(
    Transform(emptyToNull),
    IsOptional(),
    IsString(messageOption('validation.text')),
    MaxLength(maxLength, messageOption('validation.maxLength', { max: maxLength })),
  );
}

/** A value that passes one of the contract's rules (the overlay and the site apply the same one). */
function ContractRule(name: string, test: (value: string) => boolean, message: MessageKey): PropertyDecorator {
  return (object, propertyName) =>
    registerDecorator({
      name,
      target: object.constructor,
      propertyName: String(propertyName),
      options: messageOption(message),
      validator: { validate: (value: unknown) => typeof value === 'string' && test(value) },
    });
}

/** A link visitors follow: an absolute http(s) URL with a host (`isWebLink`). */
export const IsWebLink = () => ContractRule('isWebLink', isWebLink, 'validation.link');

/** An e-mail address (`isEmailAddress`), as the contact form and the overlay check it. */
export const IsEmailAddress = () => ContractRule('isEmailAddress', isEmailAddress, 'validation.emailInvalid');

/** An optional link to another site, which visitors will follow. */
export function OptionalLink() {
  return applyDecorators(OptionalText(2000), IsWebLink());
}

/** An image or file path: an uploaded /uploads/… path, a bare file name, or a full URL. */
export function OptionalFilePath() {
  return OptionalText(2000);
}

/** A whole number between `min` and `max`; `label` names it in the messages ('Year must be at least 1'). */
function IntRange(min: number, max: number, label: LabelKey) {
  const field = { key: label };
  return applyDecorators(
    IsInt(messageOption('validation.wholeNumber', { field })),
    Min(min, messageOption('validation.atLeast', { field, min })),
    Max(max, messageOption('validation.atMost', { field, max })),
  );
}

export function RequiredInt(min: number, max: number, label: LabelKey, required: MessageKey) {
  return applyDecorators(Transform(numericString), IsDefined(messageOption(required)), IntRange(min, max, label));
}

export function OptionalInt(min: number, max: number, label: LabelKey) {
  return applyDecorators(
    Transform(({ value }) => (value === '' ? null : numericString({ value }))),
    IsOptional(),
    IntRange(min, max, label),
  );
}

/** A JSON boolean; the strings "true"/"false" are accepted too (form posts, query strings). */
export function Bool(options: { optional?: boolean } = {}) {
  return applyDecorators(
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    ...(options.optional ? [IsOptional()] : [IsDefined(messageOption('validation.boolean'))]),
    IsBoolean(messageOption('validation.boolean')),
  );
}

/** An optional date given as an ISO 8601 string (or null to clear); becomes a Date. */
export function OptionalIsoDate() {
  return applyDecorators(
    Transform(({ value }) => {
      if (value === '' || value === null || value === undefined) return value === '' ? null : value;
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) {
        return new Date(value.trim());
      }
      return value;
    }),
    IsOptional(),
    IsDate(messageOption('validation.isoDate')),
  );
}

export function TextList(maxItems = 200, maxLength = 4000) {
  return applyDecorators(
    Transform(({ value }) => (value === null ? [] : value)),
    IsOptional(),
    IsArray(messageOption('validation.textList')),
    ArrayMaxSize(maxItems, messageOption('validation.maxEntries', { max: maxItems })),
    IsString(messageOption('validation.entryText', undefined, { each: true })),
    MaxLength(maxLength, messageOption('validation.entryMaxLength', { max: maxLength }, { each: true })),
  );
}

export function OneOf(values: readonly string[], options: { optional?: boolean } = {}) {
  const message = () => messageOption('validation.oneOf', { values: values.join(', ') });
  return applyDecorators(...(options.optional ? [IsOptional()] : [IsDefined(message())]), IsIn([...values], message()));
}

/** In update DTOs: a field may be left out, but not sent as null when the column requires a value. */
export function PresentOrAbsent() {
  return ValidateIf((object: object, value: unknown) => value !== undefined);
}

/** The value must equal another field's value (password confirmation). */
export function Matches(otherField: string, options: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'matchesField',
      target: object.constructor,
      propertyName,
      constraints: [otherField],
      options,
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          return value === (args.object as Record<string, unknown>)[args.constraints[0]];
        },
      },
    });
}
