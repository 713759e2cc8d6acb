import { isMessageRef, type MessageKey, type MessageLanguage, type MessageRef, messageText } from '@portfolio/contract/messages';

/**
 * What a field, an alert or a toast shows as a message: one of the catalogue's
 * (`@portfolio/contract/messages`, by key or ref, shown in the overlay's language), or a sentence
 * the server sent without a key it knows (an older API, a framework message), shown as sent.
 */
export type Message = MessageKey | MessageRef | { text: string };

export function messageInLanguage(message: Message, lang: MessageLanguage): string {
  if (typeof message === 'object' && 'text' in message) return message.text;
  return messageText(message, lang);
}

/** The server's sentence and the key it named it by (if any): the key when this overlay knows it. */
export function serverMessage(text: string, ref: unknown): Message {
  return isMessageRef(ref) ? ref : { text };
}

/** The `message` of an answer (a refusal or a notice), by its `messageKey` when this overlay knows it. */
export function answerMessage(body: { message: string; messageKey?: unknown; messageParams?: unknown }): Message {
  const ref = body.messageParams === undefined ? { key: body.messageKey } : { key: body.messageKey, params: body.messageParams };
  return serverMessage(body.message, ref);
}
