// Puts an API error next to the field that caused it: a 400 names the argument at fault in its
// `argument` field; errors naming no field of the form go above its buttons.
import { ApiError, errorMessage } from '../../api/client'

export function argumentOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.argument : undefined
}

export interface FormErrors {
  /** The message for the input of this argument, when the error names it. */
  of(argument: string): string | undefined
  /** The error when it names none of the form's fields (shown with the form's buttons). */
  general: unknown
}

export function formErrors(error: unknown, fields: readonly string[]): FormErrors {
  const argument = argumentOf(error)
  const onField = argument !== undefined && fields.includes(argument)
  // Beside its field, "invalid argument 'port': expected …" reads as "expected …".
  const text = error ? errorMessage(error) : undefined
  const prefix = `invalid argument '${argument}': `
  const message = text?.startsWith(prefix) ? text.slice(prefix.length) : text
  return {
    of: (name) => (onField && argument === name ? message : undefined),
    general: onField ? undefined : error
  }
}
