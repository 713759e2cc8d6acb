import type * as Contract from '@portfolio/contract/types';
import { BeforeInsert, BeforeUpdate, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

import type { AssertSame, Serialized } from '../common/json-shape.js';

@Entity('admin_users')
export class AdminUser {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 50, unique: true })
  username: string;

  @Column({ type: 'varchar', length: 191, unique: true })
  email: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 255, select: false })
  passwordHash: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean = true;

  /** The account created at first start: hidden from the user list, cannot be deactivated. */
  @Column({ type: 'boolean', default: false })
  isSuperadmin: boolean = false;

  @Column({ type: 'datetime' })
  createdAt: Date;

  @Column({ type: 'datetime' })
  updatedAt: Date;

  /** The password hash never leaves the server, whatever serialises this entity. */
  toJSON() {
    const { passwordHash: _hidden, ...rest } = this;
    return rest;
  }

  @BeforeInsert()
  protected stampInsert() {
    const now = new Date();
    this.createdAt ??= now;
    this.updatedAt = now;
  }

  @BeforeUpdate()
  protected stampUpdate() {
    this.updatedAt = new Date();
  }
}

/**
 * An AdminUser as the API answers it (toJSON leaves out the password hash) is the contract's
 * AdminUser: a column renamed on one side only fails tsc.
 */
type AnswerIsContract = AssertSame<Serialized<AdminUser>, Contract.AdminUser>;
