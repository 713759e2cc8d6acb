import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type Lang, LANGUAGES } from '@portfolio/contract/languages';
import { NEWSLETTER_TOPICS, type NewsletterTopic } from '@portfolio/contract/newsletter';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';

import { messageOption } from '../../common/api-message.js';

/**
 * POST /api/newsletter/subscribe, as JSON or as a plain form (documentation: the handler checks the
 * fields itself, since a form's bad input is answered with a redirect rather than a 400).
 */
export class SubscribeDto {
  @ApiProperty({ maxLength: 254, example: 'reader@example.com' })
  email: string;

  @ApiPropertyOptional({ enum: LANGUAGES, description: "The language of the mails (default: the page's, `lang`)." })
  language?: Lang;

  @ApiPropertyOptional({ enum: NEWSLETTER_TOPICS, isArray: true, description: 'None given: all of them. A form repeats the field.' })
  topics?: NewsletterTopic[];

  @ApiPropertyOptional({ enum: LANGUAGES, description: "The language of the form's page, for the redirect (default 'en')." })
  lang?: Lang;

  @ApiPropertyOptional({ description: 'A hidden field that must stay empty (filled: the answer is the same, nothing is stored or sent).' })
  website?: string;
}

export class PreferencesDto {
  @ApiProperty({ enum: LANGUAGES })
  language: Lang;

  @ApiProperty({ enum: NEWSLETTER_TOPICS, isArray: true })
  topics: NewsletterTopic[];
}

export class TokenQuery {
  @ApiProperty({ description: 'The token of a link in a newsletter mail.' })
  @IsOptional()
  @IsString()
  token?: string;
}

/** An item of a newsletter kind: POST /api/newsletter/test and /campaigns, GET /api/newsletter/preview. */
export class NewsletterItemDto {
  @ApiProperty({ enum: NEWSLETTER_TOPICS })
  @IsIn([...NEWSLETTER_TOPICS], messageOption('validation.newsletterTopics'))
  kind: NewsletterTopic;

  @ApiProperty({ type: 'integer', minimum: 1 })
  @Type(() => Number)
  @IsInt(messageOption('validation.invalidBody'))
  @Min(1, messageOption('validation.invalidBody'))
  id: number;
}

/** POST /api/newsletter/offers/dismiss ("Dismiss all"): the offers the overlay shows. */
export class DismissOffersDto {
  @ApiProperty({
    type: [NewsletterItemDto],
    maxItems: 1000,
    description: 'The offers the admin saw; one offered since (not in the list) stays offered.',
  })
  @IsArray(messageOption('validation.invalidBody'))
  @ArrayMaxSize(1000, messageOption('validation.invalidBody'))
  @ValidateNested({ each: true })
  @Type(() => NewsletterItemDto)
  offers: NewsletterItemDto[];
}

export class SubscriberListQuery {
  @ApiPropertyOptional({ description: 'Part of the address.' })
  @IsOptional()
  @IsString()
  search?: string;

  @ApiPropertyOptional({ enum: ['pending', 'confirmed', 'unsubscribed', 'paused'] })
  @IsOptional()
  @IsString()
  state?: string;

  @ApiPropertyOptional({ enum: LANGUAGES })
  @IsOptional()
  @IsString()
  language?: string;

  @ApiPropertyOptional({ enum: NEWSLETTER_TOPICS, description: 'Only readers following this topic.' })
  @IsOptional()
  @IsString()
  topic?: string;

  @ApiPropertyOptional({ type: 'integer', default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ type: 'integer', default: 50, maximum: 200 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  pageSize?: number;
}
