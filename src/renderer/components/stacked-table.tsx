// A table that on a phone shows each row as a card (stacked-table.module.css): the wide tables of the
// console (events, services, administration) fit 390 px without sideways scrolling. On wider screens it
// is a Table in a Table.ScrollContainer of the given minimum width.
import { Table, type TableProps } from '@mantine/core'
import classes from './stacked-table.module.css'

interface StackedTableProps extends TableProps {
  /** The table's width on a desk, below which it scrolls sideways there (never on a phone). */
  minWidth: number
}

/** Cells may carry data-label (their column's name, shown before the value on a phone), data-wide (a
 *  line of their own) or data-actions (at the row's right end). */
export function StackedTable({ minWidth, className, ...table }: StackedTableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth} className={classes.container}>
      <Table {...table} className={className ? `${classes.table} ${className}` : classes.table} />
    </Table.ScrollContainer>
  )
}
