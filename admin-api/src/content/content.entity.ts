import { BeforeInsert, BeforeUpdate, Column, PrimaryGeneratedColumn } from 'typeorm';

/** Columns every managed content type carries: id, timestamps, audit trail and soft delete. */
export abstract class ContentEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'boolean', default: false })
  isDeleted: boolean = false;

  @Column({ type: 'datetime' })
  createdAt: Date;

  @Column({ type: 'datetime' })
  updatedAt: Date;

  @Column({ type: 'datetime', nullable: true })
  deletedAt: Date | null = null;

  @Column({ type: 'int', nullable: true })
  createdByUserId: number | null;

  @Column({ type: 'int', nullable: true })
  lastUpdatedByUserId: number | null;

  @Column({ type: 'int', nullable: true })
  deletedByUserId: number | null = null;

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
