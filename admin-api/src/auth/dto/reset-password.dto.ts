import { PASSWORD_MIN_LENGTH } from '@portfolio/contract/rules';
import { IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';

import { messageOption } from '../../common/api-message.js';
import { Matches } from '../../common/validators.js';

export class ResetPasswordDto {
  @IsString(messageOption('validation.tokenRequired'))
  @IsNotEmpty(messageOption('validation.tokenRequired'))
  @MaxLength(200)
  token: string;

  @IsString(messageOption('validation.passwordMin'))
  @MinLength(PASSWORD_MIN_LENGTH, messageOption('validation.passwordMin'))
  @MaxLength(200, messageOption('validation.fieldMaxLength', { field: { key: 'label.password' }, max: 200 }))
  password: string;

  @IsString(messageOption('validation.confirmRequired'))
  @IsNotEmpty(messageOption('validation.confirmRequired'))
  @Matches('password', messageOption('validation.mismatch'))
  confirmPassword: string;
}
