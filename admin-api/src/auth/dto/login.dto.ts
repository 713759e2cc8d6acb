import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

import { messageOption } from '../../common/api-message.js';

export class LoginDto {
  @IsString(messageOption('validation.usernameRequired'))
  @IsNotEmpty(messageOption('validation.usernameRequired'))
  @MaxLength(200)
  username: string;

  @IsString(messageOption('validation.passwordRequired'))
  @IsNotEmpty(messageOption('validation.passwordRequired'))
  @MaxLength(200)
  password: string;
}
