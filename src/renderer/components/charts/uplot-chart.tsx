// A uPlot chart as a React component: the chart is built once per `options` (memoise them), fed new
// data in place, and follows its container's width. uPlot draws on canvas, so the figure itself is
// described for screen readers by `label`.
import 'uplot/dist/uPlot.min.css'
import './uplot-legend.css'
import { Box } from '@mantine/core'
import { useEffect, useRef } from 'react'
import uPlot from 'uplot'

export interface UplotChartProps {
  /** Everything but the size, which follows the container. */
  options: Omit<uPlot.Options, 'width' | 'height'>
  data: uPlot.AlignedData
  height: number
  label: string
}

export function UplotChart({ options, data, height, label }: UplotChartProps) {
  const container = useRef<HTMLDivElement>(null)
  const chart = useRef<uPlot | null>(null)
  const latestData = useRef(data)
  latestData.current = data

  useEffect(() => {
    const element = container.current!
    const plot = new uPlot({ ...options, width: Math.max(element.clientWidth, 100), height }, latestData.current, element)
    chart.current = plot
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 100), height }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      plot.destroy()
      chart.current = null
    }
  }, [options, height])

  useEffect(() => {
    chart.current?.setData(data)
  }, [data])

  return <Box ref={container} role="img" aria-label={label} data-chart w="100%" />
}
