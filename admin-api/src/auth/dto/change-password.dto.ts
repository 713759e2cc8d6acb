import { PASSWORD_MIN_LENGTH } from '@portfolio/contract/rules';
import { IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';

import { messageOption } from '../../common/api-message.js';
import { Matches } from '../../common/validators.js';

export class ChangePasswordDto {
  @IsString(messageOption('validation.currentRequired'))
  @IsNotEmpty(messageOption('validation.currentRequired'))
  @MaxLength(200)
  currentPassword: string;

  @IsString(messageOption('validation.newPasswordMin'))
  @MinLength(PASSWORD_MIN_LENGTH, messageOption('validation.newPasswordMin'))
  @MaxLength(200, messageOption('validation.fieldMaxLength', { field: { key: 'label.newPassword' }, max: 200 }))
  newPassword: string;

  @IsString(messageOption('validation.confirmRequired'))
  @IsNotEmpty(messageOption('validation.confirmRequired'))
  @Matches('newPassword', messageOption('validation.mismatch'))
  confirmPassword: string;
}
