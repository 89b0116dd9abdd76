// admin/alerts/rules/list|get|inscope|create|update|delete (issue 13, our extension): which events go to
// which channels. Update changes only the arguments it is given; a list sent as one empty value is cleared.
// inscope tells, before saving, how many failures active now the rule would page about; create and
// update with notifyactive queue them (issue 28: a rule also sees what was failing before it).
import { z } from 'zod'
import type { AlertRuleRecord } from '../../shared/api/alerts'
import { EventState } from '../../shared/codes'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument, HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import {
  GROUP_WAIT_MAX_SEC,
  GROUP_WAIT_RANGE,
  REMINDER_MAX_MIN,
  REMINDER_RANGE,
  ruleNameRule,
  servicePatternRule
} from '../../shared/api/alert-rules'
import type { AlertRule, AlertRuleValues } from '../store/alert-rules'
import { actorOf, detailOf, removalEndpoint } from './audit'
import type { ApiDeps } from './deps'
import {
  alertRuleCreatedAnswer,
  alertRuleListAnswer,
  alertRuleRecord,
  alertRuleScopeAnswer,
  alertRuleUpdatedAnswer,
  type AlertRuleScope
} from '../../shared/api/alerts'
import type { RuleRows } from '../domain/alert-rules'
import { alertSentence } from '../domain/alert-words'
import { FailuresInScope } from '../events/failures-in-scope'

/** A repeatable argument; one empty value stands for the empty list. */
const list = (item: z.ZodType<number, string>) =>
  z
    .array(z.string())
    .transform((values) => values.filter((v) => v.trim() !== ''))
    .pipe(z.array(item))
    .transform((values) => [...new Set(values)])

/** Event state (the API's state codes) → its bit in alert_rule.states (migration 006). */
const stateBits: Record<number, number> = { [EventState.Failed]: 1, [EventState.Changed]: 2, [EventState.Succeeded]: 4 }
const EVERY_STATE = 7

const ruleParams = {
  name: ruleNameRule.optional(),
  enabled: arg.bool().optional(),
  channelid: list(arg.int()).optional(),
  hostid: list(arg.int()).optional(),
  hostgroupid: list(arg.int()).optional(),
  servicepattern: servicePatternRule.optional(),
  servicetype: list(arg.intIn(0, 8, 'a service type code from 0 to 8')).optional(),
  state: list(arg.intIn(0, 2, '0 (succeeded), 1 (failed) or 2 (changed)')).optional(),
  eventtype: arg.intIn(0, 2 ** 32 - 1, 'an event type bitmap (0: every type)').optional(),
  heartbeat: arg.bool().optional(),
  groupwait: arg.intIn(0, GROUP_WAIT_MAX_SEC, GROUP_WAIT_RANGE).optional(),
  reminder: arg.intIn(0, REMINDER_MAX_MIN, REMINDER_RANGE).optional(),
  recovery: arg.bool().optional()
}
/** Create and update: also queue the failures active now that the rule pages about (the console asks first). */
const notifyParam = { notifyactive: arg.bool().optional() }
type RuleParams = z.output<z.ZodObject<typeof ruleParams>>

const defaults: AlertRuleValues = {
  name: '',
  enabled: true,
  servicePattern: '',
  eventTypes: 0,
  states: EVERY_STATE,
  heartbeat: true,
  groupWaitSec: 30,
  reminderMin: 0,
  recovery: true,
  channelIds: [],
  hostIds: [],
  groupIds: [],
  serviceTypes: []
}

export function adminAlertRuleEndpoints({ store }: ApiDeps): ApiEndpoint[] {
  const rules = store.alertRules
  const channels = store.alertChannels
  const groups = store.groups
  const failuresInScope = new FailuresInScope(store)
  const existing = (id: number): AlertRule => {
    const rule = rules.find(id)
    if (!rule) throw new HttpError(404, `no alert rule with id ${id}`)
    return rule
  }
  const requireFreeName = (name: string, exceptId?: number) => {
    const holder = rules.idOfName(name)
    if (holder !== undefined && holder !== exceptId) throw new HttpError(409, `an alert rule named '${name}' exists already`)
  }
  const requireKnown = (unknown: number[], what: string) => {
    if (unknown.length > 0) throw new HttpError(404, `no ${what} with id ${unknown.join(', ')}`)
  }
  /** The rule as `p` changes `base`, checked: a name, a channel, and only things that exist. */
  const ruleValues = (p: RuleParams, base: AlertRuleValues, exceptId?: number): AlertRuleValues => {
    const rule = changed(base, p)
    if (rule.name === '') throw badArgument('name', 'is required')
    if (rule.channelIds.length === 0) throw badArgument('channelid', 'at least one channel is required')
    requireFreeName(rule.name, exceptId)
    requireKnown(channels.unknown(rule.channelIds), 'alert channel')
    requireKnown(groups.unknownHosts(rule.hostIds), 'host')
    requireKnown(rules.unknownGroups(rule.groupIds), 'host group')
    return rule
  }

  return [
    endpoint({
      path: 'admin/alerts/rules/list',
      summary: 'Every alert rule',
      extension: true,
      answer: alertRuleListAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: () => ({ records: rules.list().map(record) })
    }),
    endpoint({
      path: 'admin/alerts/rules/get',
      summary: 'One alert rule',
      extension: true,
      answer: alertRuleRecord,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: { id: arg.int() },
      handle: ({ params: { id } }) => record(existing(id))
    }),
    endpoint({
      path: 'admin/alerts/rules/inscope',
      summary: 'How many failures active now a rule would page about, before it is saved (create or update with notifyactive queues them)',
      extension: true,
      answer: alertRuleScopeAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: { id: arg.int().optional(), ...ruleParams },
      handle: ({ params }): AlertRuleScope => {
        const base = params.id === undefined ? defaults : existing(params.id)
        const { count, first } = failuresInScope.count(ruleRowsOf(changed(base, params), params.id ?? 0))
        return {
          failures: count,
          first: first.map((a) => ({ hostid: a.hostid, host: a.host, service: a.service, what: alertSentence(a), date: a.date }))
        }
      }
    }),
    endpoint({
      path: 'admin/alerts/rules/create',
      summary: 'Creates an alert rule: which events go to which channels',
      extension: true,
      answer: alertRuleCreatedAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { ...ruleParams, ...notifyParam },
      handle: (ctx) => {
        const values = ruleValues(ctx.params, defaults)
        const notify = ctx.params.notifyactive === true
        const what = (id: number) => ({
          action: 'alert-rule.create',
          target: `alert-rule ${id} ${values.name}`,
          detail: detailOf({ ...values, notifyActive: notify })
        })
        const id = store.auditLog.recording(actorOf(ctx), what, () => rules.create(values, Math.floor(Date.now() / 1000)))
        return { id, notified: notify ? failuresInScope.notify(id) : 0 }
      }
    }),
    endpoint({
      path: 'admin/alerts/rules/update',
      summary: 'Changes the arguments given of an alert rule',
      extension: true,
      answer: alertRuleUpdatedAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int(), ...ruleParams, ...notifyParam },
      handle: (ctx) => {
        const rule = existing(ctx.params.id)
        const values = ruleValues(ctx.params, rule, rule.id)
        const notify = ctx.params.notifyactive === true
        const what = {
          action: 'alert-rule.update',
          target: `alert-rule ${rule.id} ${values.name}`,
          detail: detailOf({ ...values, notifyActive: notify })
        }
        store.auditLog.recording(actorOf(ctx), what, () => rules.update(rule.id, values))
        return { ...record(existing(rule.id)), notified: notify ? failuresInScope.notify(rule.id) : 0 }
      }
    }),
    removalEndpoint(store.auditLog, {
      path: 'admin/alerts/rules/delete',
      summary: 'Deletes an alert rule',
      entity: 'alert-rule',
      remove: (id) => rules.delete(id)
    })
  ]
}

/** `base` with what the arguments say; no state listed means every state. */
function changed(base: AlertRuleValues, p: RuleParams): AlertRuleValues {
  const states = p.state === undefined ? base.states : p.state.reduce((bits, s) => bits | stateBits[s], 0) || EVERY_STATE
  return {
    name: p.name ?? base.name,
    enabled: p.enabled ?? base.enabled,
    servicePattern: p.servicepattern?.trim() ?? base.servicePattern,
    eventTypes: p.eventtype ?? base.eventTypes,
    states,
    heartbeat: p.heartbeat ?? base.heartbeat,
    groupWaitSec: p.groupwait ?? base.groupWaitSec,
    reminderMin: p.reminder ?? base.reminderMin,
    recovery: p.recovery ?? base.recovery,
    channelIds: p.channelid ?? base.channelIds,
    hostIds: p.hostid ?? base.hostIds,
    groupIds: p.hostgroupid ?? base.groupIds,
    serviceTypes: p.servicetype ?? base.serviceTypes
  }
}

/** The rule as matching reads it from the store (alert-matching.ts configRows), before it is saved. */
function ruleRowsOf(v: AlertRuleValues, id: number): RuleRows {
  return {
    id,
    enabled: v.enabled,
    servicePattern: v.servicePattern,
    states: v.states,
    eventTypes: v.eventTypes,
    heartbeat: v.heartbeat,
    recovery: v.recovery,
    groupWaitSec: v.groupWaitSec,
    reminderMin: v.reminderMin,
    createdAt: 0,
    hostIds: v.hostIds,
    groupIds: v.groupIds,
    serviceTypes: v.serviceTypes,
    channelIds: v.channelIds
  }
}

function record(r: AlertRule): AlertRuleRecord {
  return {
    id: r.id,
    name: r.name,
    enabled: r.enabled,
    channelid: r.channelIds,
    hostid: r.hostIds,
    hostgroupid: r.groupIds,
    servicepattern: r.servicePattern,
    servicetype: r.serviceTypes,
    state: [EventState.Succeeded, EventState.Failed, EventState.Changed].filter((s) => (r.states & stateBits[s]) !== 0),
    eventtype: r.eventTypes,
    heartbeat: r.heartbeat,
    groupwait: r.groupWaitSec,
    reminder: r.reminderMin,
    recovery: r.recovery,
    createdat: r.createdAt
  }
}
