import { applyDecorators } from '@nestjs/common';
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
  IsUrl,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidationArguments,
  ValidationOptions,
  registerDecorator,
} from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const emptyToNull = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim();
  return v === '' ? null : v;
};
const numericString = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

/** A required text field: present, a string, not blank after trimming. */
export function RequiredText(maxLength: number, message: string) {
  return applyDecorators(
    Transform(trim),
    IsDefined({ message }),
    IsString({ message }),
    IsNotEmpty({ message }),
    MaxLength(maxLength, { message: `Must be at most ${maxLength} characters` }),
  );
}

/** An optional text field; blank means cleared (null). */
export function OptionalText(maxLength: number) {
  return applyDecorators(
    Transform(emptyToNull),
    IsOptional(),
    IsString({ message: 'Must be text' }),
    MaxLength(maxLength, { message: `Must be at most ${maxLength} characters` }),
  );
}

/** An optional link to another site, which visitors will follow. */
export function OptionalLink() {
  return applyDecorators(
    OptionalText(2000),
    IsUrl(
      { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
      { message: 'Must be a link starting with http:// or https://' },
    ),
  );
}

/** An image or file path: an uploaded /uploads/… path, a bare file name, or a full URL. */
export function OptionalFilePath() {
  return OptionalText(2000);
}

export function RequiredInt(min: number, max: number, label: string) {
  return applyDecorators(
    Transform(numericString),
    IsDefined({ message: `${label} is required` }),
    IsInt({ message: `${label} must be a whole number` }),
    Min(min, { message: `${label} must be at least ${min}` }),
    Max(max, { message: `${label} must be at most ${max}` }),
  );
}

export function OptionalInt(min: number, max: number, label: string) {
  return applyDecorators(
    Transform(({ value }) => (value === '' ? null : numericString({ value }))),
    IsOptional(),
    IsInt({ message: `${label} must be a whole number` }),
    Min(min, { message: `${label} must be at least ${min}` }),
    Max(max, { message: `${label} must be at most ${max}` }),
  );
}

/** A JSON boolean; the strings "true"/"false" are accepted too (form posts, query strings). */
export function Bool(options: { optional?: boolean } = {}) {
  return applyDecorators(
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    ...(options.optional ? [IsOptional()] : [IsDefined({ message: 'Must be true or false' })]),
    IsBoolean({ message: 'Must be true or false' }),
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
    IsDate({ message: 'Must be a date in ISO 8601 format, e.g. 2025-03-01 or 2025-03-01T10:00:00Z' }),
  );
}

export function TextList(maxItems = 200, maxLength = 4000) {
  return applyDecorators(
    Transform(({ value }) => (value === null ? [] : value)),
    IsOptional(),
    IsArray({ message: 'Must be a list of texts' }),
    ArrayMaxSize(maxItems, { message: `Must have at most ${maxItems} entries` }),
    IsString({ each: true, message: 'Each entry must be text' }),
    MaxLength(maxLength, { each: true, message: `Each entry must be at most ${maxLength} characters` }),
  );
}

export function OneOf(values: readonly string[], options: { optional?: boolean; message?: string } = {}) {
  const message = options.message ?? `Must be one of: ${values.join(', ')}`;
  return applyDecorators(
    ...(options.optional ? [IsOptional()] : [IsDefined({ message })]),
    IsIn([...values], { message }),
  );
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
