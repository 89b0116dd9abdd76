// Axis and grid colours for uPlot in the current colour scheme (uPlot draws on canvas, so CSS
// variables do not reach it; colours are resolved here).
import { useComputedColorScheme } from '@mantine/core'
import { useMemo } from 'react'
import type uPlot from 'uplot'

export interface ChartTheme {
  dark: boolean
  axis: uPlot.Axis
}

/** The same object while the scheme stays: charts rebuild their options only when it changes. */
export function useChartTheme(): ChartTheme {
  const dark = useComputedColorScheme('light') === 'dark'
  return useMemo(() => {
    const text = dark ? '#c1c2c5' : '#495057'
    const line = dark ? 'rgba(255,255,255,0.09)' : 'rgba(0,0,0,0.08)'
    return { dark, axis: { stroke: text, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } } }
  }, [dark])
}
