import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/** Lower number wins when a field breaks several rules: "is required" beats "too short". */
const PRIORITY: Record<string, number> = {
  whitelistValidation: 0,
  isDefined: 1,
  isNotEmpty: 2,
  isString: 3,
  isInt: 3,
  isNumber: 3,
  isBoolean: 3,
  isArray: 3,
  isDate: 3,
};

function firstMessage(error: ValidationError): string | undefined {
  const entries = Object.entries(error.constraints ?? {});
  entries.sort(([a], [b]) => (PRIORITY[a] ?? 9) - (PRIORITY[b] ?? 9));
  return entries[0]?.[1];
}

function flatten(errors: ValidationError[], prefix = '', out: Record<string, string> = {}) {
  for (const error of errors) {
    const key = prefix ? `${prefix}.${error.property}` : error.property;
    const message = error.constraints?.whitelistValidation ? 'Unknown field' : firstMessage(error);
    if (message) out[key] ??= message;
    if (error.children?.length) flatten(error.children, key, out);
  }
  return out;
}

/** DTO classes may set a static `validationMessage` for the summary line (e.g. the contact form's). */
export function validationException(errors: ValidationError[]) {
  const fields = flatten(errors);
  const target = errors[0]?.target as { constructor?: { validationMessage?: string } } | undefined;
  const values = Object.values(fields);
  const message =
    target?.constructor?.validationMessage ?? (values.length === 1 ? values[0] : values.length ? 'Validation failed' : 'Invalid request body');
  return new BadRequestException({ statusCode: 400, message, errors: fields });
}

export function createValidationPipe() {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: true, value: false },
    exceptionFactory: validationException,
  });
}
