import type { ReactNode } from 'react';

import { useI18n } from '../i18n/i18n';

export interface Column<T> {
  header: string;
  render: (item: T) => ReactNode;
  /** The column that names the row (bold, first on phones). */
  primary?: boolean;
}

interface DataTableProps<T extends { id: number }> {
  caption: string;
  items: T[];
  columns: Column<T>[];
  isLoading: boolean;
  emptyText: string;
  actions?: (item: T) => ReactNode;
  rowClassName?: (item: T) => string | undefined;
}

export const SKELETON_ROWS = 6;

/** A list as a table (cards on phones), with 'Loading...' and skeleton rows, or the empty text. */
export function DataTable<T extends { id: number }>({
  caption,
  items,
  columns,
  isLoading,
  emptyText,
  actions,
  rowClassName,
}: DataTableProps<T>) {
  const { t } = useI18n();
  if (isLoading) {
    return (
      <div className="ao-table-state">
        <p role="status" className="ao-loading">
          {t('common.loading')}
        </p>
        <div className="ao-skeletons" aria-hidden="true">
          {Array.from({ length: SKELETON_ROWS }, (_, index) => (
            <div key={index} className="ao-skeleton-row">
              <span className="ao-skeleton ao-skeleton-wide" />
              <span className="ao-skeleton" />
              <span className="ao-skeleton" />
            </div>
          ))}
        </div>
      </div>
    );
  }
  if (!items.length) {
    return (
      <p role="status" className="ao-empty">
        {emptyText}
      </p>
    );
  }
  return (
    <table className="ao-table">
      <caption className="ao-sr-only">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span className="ao-sr-only">{t('common.actions')}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id} className={rowClassName?.(item)}>
            {columns.map((column) =>
              column.primary ? (
                <th key={column.header} scope="row" className="ao-cell-primary">
                  {column.render(item)}
                </th>
              ) : (
                <td key={column.header} data-label={column.header}>
                  {column.render(item)}
                </td>
              ),
            )}
            {actions && <td className="ao-cell-actions">{actions(item)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
