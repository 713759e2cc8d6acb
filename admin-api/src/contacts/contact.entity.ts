import type * as Contract from '@portfolio/contract/types';
import { BeforeInsert, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

import type { AssertSame, Serialized } from '../common/json-shape.js';

@Entity('contacts')
export class Contact {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 300 })
  subject: string;

  @Column({ type: 'text' })
  message: string;

  @Column({ type: 'boolean', default: false })
  read: boolean = false;

  @Column({ type: 'boolean', default: false })
  isDeleted: boolean = false;

  @Column({ type: 'datetime' })
  createdAt: Date;

  @Column({ type: 'datetime', nullable: true })
  deletedAt: Date | null;

  @Column({ type: 'int', nullable: true })
  deletedByUserId: number | null;

  @BeforeInsert()
  protected stampInsert() {
    this.createdAt ??= new Date();
  }
}

/** A Contact as the API answers it is the contract's Contact: a column renamed on one side only fails tsc. */
type AnswerIsContract = AssertSame<Serialized<Contact>, Contract.Contact>;
