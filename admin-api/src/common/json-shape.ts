/** What `JSON.stringify` makes of a T: Dates become ISO strings, `toJSON()` is applied, methods are left out. */
export type Serialized<T> = T extends Date
  ? string
  : T extends { toJSON(): infer R }
    ? Serialized<R>
    : T extends readonly (infer U)[]
      ? Serialized<U>[]
      : T extends object
        ? { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Serialized<T[K]> }
        : T;

/** True only when A and B are the same type: the same properties, each of the same type and optionality. */
export type Equals<A, B> = (<X>() => X extends Flat<A> ? 1 : 2) extends <X>() => X extends Flat<B> ? 1 : 2 ? true : false;

/**
 * Compiles only when `Api` and `Contract` are the same type; otherwise tsc names the properties
 * that differ (on one side only, or of another type or optionality), e.g. `Property
 * 'differsFromContractIn' is missing in type 'Book' but required in type '{ differsFromContractIn:
 * "goodreadsLink" | "goodreadsUrl"; }'`. Written beside an entity or a DTO, it makes a column or
 * field renamed on one side only fail the compile instead of the site.
 */
export type AssertSame<
  Api,
  Contract extends (Equals<Api, Contract> extends true
    ? unknown
    : { differsFromContractIn: OnlyIn<Api, Contract> | OnlyIn<Contract, Api> | Differing<Api, Contract> }),
> = Contract;

/** Intersections (`Pick<…> & Partial<…>`) as one object type, so they compare equal to the same properties. */
type Flat<T> = T extends object ? { [K in keyof T]: T[K] } : T;

type OnlyIn<A, B> = Exclude<keyof A, keyof B>;
type Differing<A, B> = { [K in keyof A & keyof B]-?: Equals<Pick<A, K>, Pick<B, K>> extends true ? never : K }[keyof A & keyof B];
