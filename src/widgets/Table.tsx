import {
  Cell as AriaCell,
  type CellProps,
  Column as AriaColumn,
  type ColumnProps,
  Row as AriaRow,
  type RowProps,
  Table as AriaTable,
  TableBody as AriaTableBody,
  type TableBodyProps,
  TableHeader as AriaTableHeader,
  type TableHeaderProps,
  type TableProps,
} from 'react-aria-components';
import { kitClass } from './kitClass.ts';
import './Table.css';

/** A grid of rows (React Aria's table: arrow keys move between rows and cells). Name it with aria-label. */
export function Table(props: TableProps) {
  return <AriaTable {...props} className={kitClass('lc-table', props.className)} />;
}

export function TableHeader<T extends object>(props: TableHeaderProps<T>) {
  return <AriaTableHeader {...props} className={kitClass('lc-table__header', props.className)} />;
}

/** A column's title; give one column isRowHeader, the one that names each row. */
export function Column(props: ColumnProps) {
  return <AriaColumn {...props} className={kitClass('lc-table__column', props.className)} />;
}

export function TableBody<T extends object>(props: TableBodyProps<T>) {
  return <AriaTableBody {...props} className={kitClass('lc-table__body', props.className)} />;
}

export function Row<T extends object>(props: RowProps<T>) {
  return <AriaRow {...props} className={kitClass('lc-table__row', props.className)} />;
}

export function Cell(props: CellProps) {
  return <AriaCell {...props} className={kitClass('lc-table__cell', props.className)} />;
}
