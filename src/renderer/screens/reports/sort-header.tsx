// A table column header that sorts by its column: a real button (keyboard reachable) and aria-sort.
import { Table, UnstyledButton } from '@mantine/core'
import type { ReactNode } from 'react'

interface SortHeaderProps<K extends string> {
  column: K
  sort: K | undefined
  dir: 'asc' | 'desc'
  onSort: (column: K, dir: 'asc' | 'desc') => void
  /** The direction a first click on this column sorts in. */
  firstDir?: 'asc' | 'desc'
  w?: number | string
  children: ReactNode
}

export function SortHeader<K extends string>({ column, sort, dir, onSort, firstDir = 'asc', w, children }: SortHeaderProps<K>) {
  const sorted = column === sort
  const next = sorted ? (dir === 'asc' ? 'desc' : 'asc') : firstDir
  return (
    <Table.Th w={w} aria-sort={sorted ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(column, next)} fw={700} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {children}{sorted ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
      </UnstyledButton>
    </Table.Th>
  )
}
