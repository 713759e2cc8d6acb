import { Injectable } from '@nestjs/common';

/** The time two-factor codes and publication times are checked against; tests set `now` instead of waiting for time steps. */
@Injectable()
export class Clock {
  now: () => number = () => Date.now();
}
