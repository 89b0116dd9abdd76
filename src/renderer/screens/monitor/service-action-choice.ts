// Which actions a service offers, and which ask first. Monit's start, stop and restart run the service's
// start, stop or restart program and fail without one (agent protocol §5.3, docs/agent-protocol.md); the agent's report
// does not say which programs exist, so they are offered where Monit checks something it runs: processes
// and programs. A system, file, directory, filesystem, fifo, remote host or network check only watches,
// so it offers monitor or unmonitor, whichever is not its state already.
import { ServiceType } from '../../../shared/codes'
import type { ServiceAction } from '../../api/status'

const RUNS_SOMETHING: readonly number[] = [ServiceType.Process, ServiceType.Program]

export function offeredActions(service: { typeid: number; monitorstate: number }): ServiceAction[] {
  const monitoring: ServiceAction = service.monitorstate === 0 ? 'monitor' : 'unmonitor'
  return RUNS_SOMETHING.includes(service.typeid) ? ['start', 'stop', 'restart', monitoring] : [monitoring]
}

/** Stop and restart interrupt what the service does: they ask first. */
export function asksFirst(action: ServiceAction): boolean {
  return action === 'stop' || action === 'restart'
}
