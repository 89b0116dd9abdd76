// Keeps notifications useful when a service flaps or a network outage fails many hosts at once: one
// notification per subject (host + service + check) per quiet period, and at most `burst` in any
// window; what is held back is counted so the shell can show one summary instead.

export interface ThrottlePolicy {
  /** A subject that was just notified stays quiet this long. */
  perSubjectMs: number
  /** At most this many notifications… */
  burst: number
  /** …in any window of this length. */
  windowMs: number
}

export const defaultThrottle: ThrottlePolicy = { perSubjectMs: 5 * 60_000, burst: 5, windowMs: 60_000 }

export class NotificationThrottle {
  private readonly lastBySubject = new Map<string, number>()
  private shownAt: number[] = []
  private held = 0

  constructor(private readonly policy: ThrottlePolicy = defaultThrottle) {}

  /** True when a notification about `subject` may be shown at `now` (ms); false ones are counted as held back. */
  admit(subject: string, now: number): boolean {
    this.shownAt = this.shownAt.filter((t) => now - t < this.policy.windowMs)
    const last = this.lastBySubject.get(subject)
    if ((last !== undefined && now - last < this.policy.perSubjectMs) || this.shownAt.length >= this.policy.burst) {
      this.held++
      return false
    }
    this.lastBySubject.set(subject, now)
    this.shownAt.push(now)
    this.forgetQuietSubjects(now)
    return true
  }

  /** How many were held back since the last call (for one summary notification); resets the count. */
  takeHeldBack(): number {
    const held = this.held
    this.held = 0
    return held
  }

  /** The map would otherwise grow with every subject ever seen. */
  private forgetQuietSubjects(now: number): void {
    if (this.lastBySubject.size < 1_000) return
    for (const [subject, at] of this.lastBySubject) {
      if (now - at >= this.policy.perSubjectMs) this.lastBySubject.delete(subject)
    }
  }
}
