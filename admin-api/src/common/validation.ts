import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { isMessageKey, type MessageKey, type MessageRef, messageText } from '@portfolio/contract/messages';

import type { MessageContext } from './api-message.js';

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

interface FieldProblem {
  message: string;
  /** Absent for a rule that names no catalogue message (class-validator's own). */
  ref?: MessageRef;
}

const keyed = (key: MessageKey): FieldProblem => ({ message: messageText(key, 'en'), ref: { key } });

function firstProblem(error: ValidationError): FieldProblem | undefined {
  if (error.constraints?.whitelistValidation) return keyed('validation.unknownField');
  const rules = Object.keys(error.constraints ?? {});
  rules.sort((a, b) => (PRIORITY[a] ?? 9) - (PRIORITY[b] ?? 9));
  const rule = rules[0];
  if (!rule) return undefined;
  const context = error.contexts?.[rule] as Partial<MessageContext> | undefined;
  const ref: MessageRef | undefined = isMessageKey(context?.messageKey)
    ? { key: context.messageKey, ...(context.messageParams ? { params: context.messageParams } : {}) }
    : undefined;
  return { message: error.constraints![rule], ref };
}

function flatten(errors: ValidationError[], prefix = '', out: Record<string, FieldProblem> = {}) {
  for (const error of errors) {
    const key = prefix ? `${prefix}.${error.property}` : error.property;
    const problem = firstProblem(error);
    if (problem) out[key] ??= problem;
    if (error.children?.length) flatten(error.children, key, out);
  }
  return out;
}

/** DTO classes may set a static `validationMessage` (a key) for the summary line (e.g. the contact form's). */
export function validationException(errors: ValidationError[]) {
  const problems = Object.entries(flatten(errors));
  const target = errors[0]?.target as { constructor?: { validationMessage?: MessageKey } } | undefined;
  const summaryKey = target?.constructor?.validationMessage;
  const summary = summaryKey
    ? keyed(summaryKey)
    : problems.length === 1
      ? problems[0][1]
      : keyed(problems.length ? 'validation.failed' : 'validation.invalidBody');
  const errorKeys = Object.fromEntries(problems.flatMap(([field, { ref }]) => (ref ? [[field, ref]] : [])));
  return new BadRequestException({
    statusCode: 400,
    message: summary.message,
    ...(summary.ref ? { messageKey: summary.ref.key, ...(summary.ref.params ? { messageParams: summary.ref.params } : {}) } : {}),
    errors: Object.fromEntries(problems.map(([field, { message }]) => [field, message])),
    errorKeys,
  });
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
