// Puts an API error next to the field that caused it: the server names the argument in its message
// ("invalid argument 'port': ..."); errors naming no field of the form go above its buttons.
import { ApiError, errorMessage } from '../../api/client'

function argumentOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined
  return /invalid argument '([A-Za-z0-9]+)'/.exec(error.message)?.[1]
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
  const message = error ? errorMessage(error).replace(/^invalid argument '[A-Za-z0-9]+': /, '') : undefined
  return {
    of: (name) => (onField && argument === name ? message : undefined),
    general: onField ? undefined : error
  }
}
