import { PASSWORD_MIN_LENGTH } from '@portfolio/contract/rules';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';

import { messageOption } from '../../common/api-message.js';
import { IsEmailAddress } from '../../common/validators.js';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateAdminUserDto {
  @Transform(trim)
  @IsString(messageOption('validation.usernameRequired'))
  @IsNotEmpty(messageOption('validation.usernameRequired'))
  @Matches(/^[A-Za-z0-9._-]{3,50}$/, messageOption('validation.usernameFormat'))
  username: string;

  @Transform(trim)
  @IsString(messageOption('validation.emailRequired'))
  @IsNotEmpty(messageOption('validation.emailRequired'))
  @IsEmailAddress()
  @MaxLength(191, messageOption('validation.emailInvalid'))
  email: string;

  @Transform(trim)
  @IsString(messageOption('validation.nameRequired'))
  @IsNotEmpty(messageOption('validation.nameRequired'))
  @MaxLength(200, messageOption('validation.fieldMaxLength', { field: { key: 'label.name' }, max: 200 }))
  name: string;

  @IsString(messageOption('validation.passwordMin'))
  @MinLength(PASSWORD_MIN_LENGTH, messageOption('validation.passwordMin'))
  @MaxLength(200, messageOption('validation.fieldMaxLength', { field: { key: 'label.password' }, max: 200 }))
  password: string;
}
