import type { MessageKey } from '@portfolio/contract/messages';
import type { ContactInput } from '@portfolio/contract/types';
import { Transform } from 'class-transformer';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';

import { messageOption } from '../../common/api-message.js';
import type { AssertSame, Serialized } from '../../common/json-shape.js';
import { IsEmailAddress } from '../../common/validators.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateContactDto {
  /** The contact form's own summary line (specification, section 5). */
  static validationMessage: MessageKey = 'validation.fillAllFields';

  @Transform(trim)
  @IsDefined(messageOption('validation.nameRequired'))
  @IsString(messageOption('validation.nameRequired'))
  @IsNotEmpty(messageOption('validation.nameRequired'))
  @MaxLength(200, messageOption('validation.fieldMaxLength', { field: { key: 'label.name' }, max: 200 }))
  name: string;

  @Transform(trim)
  @IsDefined(messageOption('validation.emailRequired'))
  @IsString(messageOption('validation.emailRequired'))
  @IsNotEmpty(messageOption('validation.emailRequired'))
  @IsEmailAddress()
  @MaxLength(254, messageOption('validation.emailInvalid'))
  email: string;

  @Transform(trim)
  @IsDefined(messageOption('validation.subjectRequired'))
  @IsString(messageOption('validation.subjectRequired'))
  @IsNotEmpty(messageOption('validation.subjectRequired'))
  @MaxLength(300, messageOption('validation.fieldMaxLength', { field: { key: 'label.subject' }, max: 300 }))
  subject: string;

  @Transform(trim)
  @IsDefined(messageOption('validation.messageRequired'))
  @IsString(messageOption('validation.messageRequired'))
  @IsNotEmpty(messageOption('validation.messageRequired'))
  @MaxLength(10000, messageOption('validation.fieldMaxLength', { field: { key: 'label.message' }, max: 10000 }))
  message: string;
}

/** The body a client sends is the contract's ContactInput: a field renamed on one side only fails tsc. */
type BodyIsContract = AssertSame<Serialized<CreateContactDto>, ContactInput>;
