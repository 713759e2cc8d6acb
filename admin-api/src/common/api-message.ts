import { type MessageKey, type MessageParams, messageText } from '@portfolio/contract/messages';
import type { ValidationOptions } from 'class-validator';

/** A field label, for the catalogue's templates ('{field} must be a whole number'). */
export type LabelKey = Extract<MessageKey, `label.${string}`>;

/** What the exception filter reads from a validation error's `contexts` and from a refusal. */
export interface MessageContext {
  messageKey: MessageKey;
  messageParams?: MessageParams;
}

/**
 * The options of a class-validator decorator that names a catalogue message: its English text as
 * the `message` (what `errors` says, unchanged), its key and parameters in the `context`.
 */
export function messageOption(key: MessageKey, params?: MessageParams, options: ValidationOptions = {}): ValidationOptions {
  const context: MessageContext = params ? { messageKey: key, messageParams: params } : { messageKey: key };
  return { ...options, message: messageText(key, 'en', params), context };
}

/**
 * The response of an HttpException that names a catalogue message, e.g.
 * `new NotFoundException(refusal('error.notFound'))`. With `field`, the message is that field's
 * problem too (`errors` and `errorKeys`).
 */
export function refusal(key: MessageKey, options: { params?: MessageParams; field?: string } = {}) {
  const message = messageText(key, 'en', options.params);
  const ref = options.params ? { key, params: options.params } : { key };
  return {
    message,
    messageKey: key,
    ...(options.params ? { messageParams: options.params } : {}),
    ...(options.field ? { errors: { [options.field]: message }, errorKeys: { [options.field]: ref } } : {}),
  };
}

/** A `{ message }` answer that reports success, with its key. */
export function notice(key: MessageKey) {
  return { message: messageText(key, 'en'), messageKey: key };
}
