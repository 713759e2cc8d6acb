import { IsString, MaxLength } from 'class-validator';

import { messageOption } from '../../common/api-message.js';
import { IsEmailAddress } from '../../common/validators.js';

export class ForgotPasswordDto {
  @IsString(messageOption('validation.emailInvalid'))
  @IsEmailAddress()
  @MaxLength(254, messageOption('validation.emailInvalid'))
  email: string;
}
